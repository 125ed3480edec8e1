package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.poolbudget.install.ChartTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 46, item 1: fit before the change. The chart's fit guard (a ValidatingAdmissionPolicy whose params are the
 * namespace's PoolPolicies) answers {@code kubectl scale} past status.targets[].replicasThatFit, as kubectl itself
 * shows it: a warning that lets the change through (fitGuard.action Warn, the default), a refusal when opted in
 * (Deny); a count within the fit, or a change that leaves the count alone, passes silently.
 */
class FitGuardIT extends OperatorTestBase {
    private static final List<HasMetadata> installed = new ArrayList<>();
    private static String kubectl;

    @BeforeAll
    static void start() {
        startOperator("fitguard", "10s");
        guard("Warn");
    }

    @AfterAll
    static void uninstall() {
        var admin = TestCluster.of(FitGuardIT.class).client();
        installed.forEach(o -> admin.resource(o).delete());
    }

    /** The chart's fit guard with the given action, applied as helm install or upgrade would. */
    private static void guard(String action) {
        var admin = TestCluster.of(FitGuardIT.class).client();
        installed.clear();
        for (JsonNode doc : ChartTools.render("poolbudget-system", "fitGuard.action=" + action)) {
            if (doc.path("metadata").path("name").asText().endsWith("-fit-guard")) {
                var object = Serialization.unmarshal(doc.toString(), GenericKubernetesResource.class);
                installed.add(admin.resource(object).forceConflicts().serverSideApply());
            }
        }
        assertThat(installed).extracting(HasMetadata::getKind)
                .containsExactly("ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding");
    }

    @Test
    void kubectlScalePastTheFitIsWarnedAndDeniedWhenOptedIn() throws Exception {
        create(deployment("web", 2, Map.of()));
        applyPolicy(WEB_POLICY.formatted(6)); // budget 12
        var policy = awaitPolicy("db", p -> target(p, "web") != null && target(p, "web").getReplicasThatFit() != null);
        long fit = target(policy, "web").getReplicasThatFit();
        System.out
                .println("FitGuardIT: web fits up to " + fit + " replicas; " + target(policy, "web").getExplanation());
        assertThat(fit).isBetween(3L, 11L);
        // plan, offline, from the same objects: the same number (one source)
        var out = new java.io.ByteArrayOutputStream();
        String manifests = Serialization.asYaml(deployment("web")) + "---\n" + WEB_POLICY.formatted(6);
        int exit = io.poolbudget.cli.PlanCommand.run(new String[]{"-f", "-"},
                new java.io.ByteArrayInputStream(manifests.getBytes(StandardCharsets.UTF_8)),
                new java.io.PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertThat(exit).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("fits up to " + fit + " replicas at minPoolSize 1");

        var within = kubectl("scale", "deployment/web", "--replicas=" + fit);
        assertThat(within.exit()).as(within.err()).isZero();
        assertThat(within.err()).as("no warning within the fit").doesNotContain("Warning");

        Result past = scaleUntilWarned("deployment/web", fit);
        System.out.println("FitGuardIT: kubectl scale --replicas=" + (fit + 1) + ": " + past.err().strip());
        assertThat(past.exit()).as(past.err()).isZero();
        assertThat(past.err()).startsWith("Warning: ").contains("Deployment/web at " + (fit + 1) + " replicas does "
                + "not fit the budget of PoolPolicy db at minPoolSize: up to " + fit + " replicas fit");
        assertThat(deployment("web").getSpec().getReplicas()).isEqualTo((int) fit + 1);
        var again = kubectl("annotate", "deployment/web", "team=checkout");
        assertThat(again.err()).as("a change that leaves the count alone").doesNotContain("Warning");

        var further = kubectl("scale", "deployment/web", "--replicas=" + (fit + 3));
        assertThat(further.exit()).isZero();
        assertThat(further.err()).contains("Deployment/web at " + (fit + 3) + " replicas does not fit");

        guard("Deny");
        Result denied = null;
        for (int i = 0; i < 20; i++) { // the API server picks up the new binding within a second or so
            denied = kubectl("scale", "deployment/web", "--replicas=" + (fit + 5));
            if (denied.exit() != 0) {
                break;
            }
            kubectl("scale", "deployment/web", "--replicas=" + (fit + 3)); // no raise: admitted
            TimeUnit.MILLISECONDS.sleep(500);
        }
        System.out.println("FitGuardIT: with Deny: " + denied.err().strip());
        assertThat(denied.exit()).isNotZero();
        assertThat(denied.err()).contains("denied request: Deployment/web at " + (fit + 5) + " replicas does not fit");
        assertThat(deployment("web").getSpec().getReplicas()).isEqualTo((int) fit + 3);
        var lower = kubectl("scale", "deployment/web", "--replicas=" + (fit + 1));
        assertThat(lower.exit()).as("a scale down, even one still past the fit, passes: " + lower.err()).isZero();
        assertThat(lower.err()).doesNotContain("denied");

        var hpa = new HorizontalPodAutoscalerBuilder().withNewMetadata().withName("web").withNamespace(ns)
                .endMetadata().withNewSpec().withNewScaleTargetRef("apps/v1", "Deployment", "web")
                .withMinReplicas(1).withMaxReplicas((int) fit * 3).endSpec().build();
        var refused = kubectlApply(Serialization.asYaml(hpa));
        assertThat(refused.exit()).isNotZero();
        assertThat(refused.err()).contains("Deployment/web at " + fit * 3 + " (HPA web maxReplicas) replicas does not "
                + "fit");
    }

    /** The guard answers a Rollout's scale too, from the fit of its own strategy (blue-green: 3 x its replicas). */
    @Test
    void anArgoRolloutScaledPastTheFitIsWarned() throws Exception {
        guard("Warn");
        client.resource(client.load(
                new java.io.ByteArrayInputStream("""
                        apiVersion: argoproj.io/v1alpha1
                        kind: Rollout
                        metadata: {name: shop}
                        spec:
                          replicas: 2
                          selector: {matchLabels: {app: shop}}
                          template:
                            metadata: {labels: {app: shop}}
                            spec: {containers: [{name: app, image: registry.k8s.io/pause:3.10}]}
                          strategy: {blueGreen: {activeService: shop}}
                        """.getBytes(StandardCharsets.UTF_8))).items().get(0)).inNamespace(ns).create();
        applyPolicy(WEB_POLICY.formatted(6).replace("{name: web}", "{kind: Rollout, name: shop}")); // budget 12
        var policy = awaitPolicy("db",
                p -> target(p, "shop") != null && target(p, "shop").getReplicasThatFit() != null);
        long fit = target(policy, "shop").getReplicasThatFit();
        assertThat(fit).as("3 x replicas (preview, active, a superseded preview) at pool 1 within 12").isEqualTo(4);
        var within = kubectl("scale", "rollout/shop", "--replicas=" + fit);
        assertThat(within.exit()).as(within.err()).isZero();
        assertThat(within.err()).as("no warning within the fit").doesNotContain("Warning");
        Result past = scaleUntilWarned("rollout/shop", fit);
        System.out.println("FitGuardIT: kubectl scale rollout --replicas=" + (fit + 1) + ": " + past.err().strip());
        assertThat(past.exit()).as(past.err()).isZero();
        assertThat(past.err()).startsWith("Warning: ").contains("Rollout/shop at " + (fit + 1) + " replicas does not "
                + "fit the budget of PoolPolicy db at minPoolSize: up to " + fit + " replicas fit");
    }

    /**
     * Scales {@code workload} one past {@code fit}, back to {@code fit} and again until the guard warns: a new binding
     * and a status just written reach the API server's admission within a second or so. The last answer.
     */
    private Result scaleUntilWarned(String workload, long fit) throws IOException, InterruptedException {
        Result past = null;
        for (int i = 0; i < 20; i++) {
            past = kubectl("scale", workload, "--replicas=" + (fit + 1));
            if (past.err().contains("Warning")) {
                break;
            }
            kubectl("scale", workload, "--replicas=" + fit);
            TimeUnit.MILLISECONDS.sleep(500);
        }
        return past;
    }

    record Result(int exit, String out, String err) {}

    private Result kubectl(String... args) throws IOException, InterruptedException {
        return run(null, args);
    }

    private Result kubectlApply(String yaml) throws IOException, InterruptedException {
        return run(yaml, "apply", "-f", "-");
    }

    private Result run(String stdin, String... args) throws IOException, InterruptedException {
        if (kubectl == null) {
            kubectl = Installation.clusterBin().resolve("kubectl").toString();
        }
        var command = new ArrayList<>(List.of(kubectl,
                "--kubeconfig", TestCluster.of(getClass()).kubeconfig().toString(), "-n", ns));
        command.addAll(List.of(args));
        var process = new ProcessBuilder(command).start();
        if (stdin != null) {
            process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), out, err);
    }
}
