package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.poolbudget.api.argo.ArgoRollout;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.cli.PlanCommand;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 46, items 3 to 5: Argo Rollouts and CronJobs as targets. Argo's own Rollout CRD is installed
 * ({@link ClusterFixture#installArgoRolloutsCrd}); its controller does not run, so a Rollout's pods never start and its
 * target stays Rolling (never Applied over a rollout nobody performs). CronJobs run on the cluster's own Job controller.
 */
class MoreKindsIT extends OperatorTestBase {
    private static final String EXAMPLE = "examples/more-kinds/policy.yaml";
    private static final String SPRING_MAX = "SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE";

    @BeforeAll
    static void start() {
        startOperator("more-kinds", "0s");
        GracefulShutdown.ensureRunning(TestCluster.of(MoreKindsIT.class).client());
    }

    /** What {@code poolbudget plan -o json} says of each target of the file: workload id to {poolSize, peakPods}. */
    static Map<String, int[]> plan(String file) throws Exception {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int exit = PlanCommand.run(new String[]{"-f", file, "-o", "json"}, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
        Map<String, int[]> sizes = new HashMap<>();
        for (JsonNode t : new ObjectMapper().readTree(out.toByteArray()).path("policies").get(0).path("targets")) {
            sizes.put(t.path("workload").asText(), new int[]{t.path("poolSize").asInt(), t.path("peakPods").asInt()});
        }
        return sizes;
    }

    private static String env(io.fabric8.kubernetes.api.model.PodTemplateSpec template, String variable) {
        return template == null || template.getSpec() == null ? null
                : OperatorTestBase.env(template.getSpec().getContainers().get(0).getEnv(), variable);
    }

    @Test
    void theExampleIsSizedInTheClusterAsPlanSizesIt() throws Exception {
        for (HasMetadata o : client.load(Files.newInputStream(Path.of(EXAMPLE))).items()) {
            if (o instanceof CronJob c) {
                // stock-sync starts a Job every 5 minutes: one started before the operator's first write would run
                // (and be Rolling) at the app's default until it ends, whenever the clock lets this test race it
                c.getSpec().setSuspend(true);
            }
            client.resource(o).inNamespace(ns).create();
        }
        Map<String, int[]> planned = plan(EXAMPLE);
        assertThat(planned).containsKeys("Rollout/storefront", "Rollout/checkout", "CronJob/nightly-report",
                "CronJob/stock-sync");
        PoolPolicy p = awaitPolicy("shop-db", policy -> policy.getStatus().getTargets() != null
                && policy.getStatus().getTargets().size() == 4 && planned.entrySet().stream().allMatch(e -> {
                    var t = target(policy, e.getKey().substring(e.getKey().indexOf('/') + 1));
                    return t != null && Integer.valueOf(e.getValue()[0]).equals(t.getPoolSize())
                            && Integer.valueOf(e.getValue()[0]).equals(t.getAppliedPoolSize());
                }));
        for (var e : planned.entrySet()) {
            String name = e.getKey().substring(e.getKey().indexOf('/') + 1);
            assertThat(target(p, name).getPeakPods()).as(e.getKey()).isEqualTo((long) e.getValue()[1]);
        }
        // the status that first shows the sizes may be the one written with them (Rolling): a CronJob has nothing to
        // roll, so a following pass says Applied; Rollouts nobody rolls stay Rolling
        p = awaitPolicy("shop-db", policy -> List.of("nightly-report", "stock-sync").stream()
                .allMatch(n -> target(policy, n) != null && "Applied".equals(target(policy, n).getState())));
        // written into each template, against Argo's own schema for the Rollouts
        for (String name : List.of("storefront", "checkout")) {
            var r = client.resources(ArgoRollout.class).inNamespace(ns).withName(name).get();
            assertThat(env(r.getSpec().template, SPRING_MAX)).as(name)
                    .isEqualTo(Integer.toString(planned.get("Rollout/" + name)[0]));
            assertThat(r.getSpec().template.getSpec().getContainers().get(0).getImage()).isNotBlank();
            // Argo's controller does not run here: its rollout is not done, and the status says it is rolling, never Applied
            assertThat(target(p, name).getState()).isEqualTo("Rolling");
        }
        for (String name : List.of("nightly-report", "stock-sync")) {
            var c = client.batch().v1().cronjobs().inNamespace(ns).withName(name).get();
            assertThat(env(c.getSpec().getJobTemplate().getSpec().getTemplate(), SPRING_MAX)).as(name)
                    .isEqualTo(Integer.toString(planned.get("CronJob/" + name)[0]));
            assertThat(target(p, name).getState()).isEqualTo("Applied");
        }
    }

    private static final String JOBS_POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: db}
            spec:
              database: {cores: 1, budget: 24}
              injection: {preset: hikari-env}
              targets: [{kind: CronJob, name: sync}, {name: web, terminatingPods: 1}]
            """;

    /** A Job of the CronJob as its controller starts one: named after it and a minute, owned by it, its template. */
    private void startJob(CronJob cj, long minute) {
        var template = client.batch().v1().cronjobs().inNamespace(ns).withName(cj.getMetadata().getName()).get()
                .getSpec().getJobTemplate();
        create(new JobBuilder().withNewMetadata().withName(cj.getMetadata().getName() + "-" + minute)
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("CronJob")
                        .withName(cj.getMetadata().getName()).withUid(cj.getMetadata().getUid()).withController(true)
                        .build())
                .endMetadata().withSpec(template.getSpec()).build());
    }

    /**
     * The invariant for CronJob pods: with its Jobs overlapping as far as its schedule and deadline allow (3 at once,
     * 2 pods each) beside a Deployment that rolls, what the pods hold never passes the budget, sampled at every pod
     * event and every 100 ms.
     */
    @Test
    void overlappingJobsAndARollingDeploymentStayWithinTheBudget() throws Exception {
        create(GracefulShutdown.hold(deployment("web", 2, Map.of())));
        var cj = create(new io.fabric8.kubernetes.api.model.batch.v1.CronJobBuilder().withNewMetadata()
                .withName("sync").endMetadata().withNewSpec().withSchedule("* * * * *").withSuspend(true)
                .withConcurrencyPolicy("Allow").withNewJobTemplate().withNewSpec().withParallelism(2)
                .withActiveDeadlineSeconds(180L).withPodReplacementPolicy("Failed").withNewTemplate()
                .withNewMetadata().withLabels(Map.of("app", "sync")).endMetadata().withNewSpec()
                .withRestartPolicy("Never").addNewContainer().withName("sync").withImage("registry.k8s.io/pause:3.10")
                .endContainer().endSpec().endTemplate().endSpec().endJobTemplate().endSpec().build());
        // suspended: its Jobs are started here, on demand, as its controller would every minute. Every minute, each
        // Job stopped at 3 minutes: 4 Jobs at once (the one its deadline stops, shutting down, counted) of 2 pods = 8
        // peak pods; web 2 + 1 surge + 1 terminating = 4: 12 peak pods, 2 each
        applyPolicy(JOBS_POLICY);
        awaitPolicy("db", targetState("sync", "Applied", 2).and(targetState("web", "Applied", 2)));
        awaitRolledOut("web");
        // the pods web ran before its first size (the app's default 10 each) are gone before the count starts
        Awaitility.await().atMost(60, TimeUnit.SECONDS).until(() -> client.pods().inNamespace(ns).list().getItems()
                .stream().allMatch(p -> p.getMetadata().getDeletionTimestamp() == null));
        long budget = 24;
        try (var sampler = LiveSampler.start(client, ns, MAX, 10);
                var poll = PollingSum.every100ms(client, ns, MAX,
                        10)) {
            for (int i = 0; i < 8; i++) {
                if (i >= 3) { // the deadline stops the oldest of the last four as the next starts
                    client.batch().v1().jobs().inNamespace(ns).withName("sync-" + (1000 + i - 3))
                            .withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.BACKGROUND)
                            .delete();
                }
                startJob(cj, 1000 + i);
                if (i % 3 == 1) { // a rollout of web while the Jobs overlap, one at a time
                    rolloutRestart("web", "j" + i);
                    awaitRolledOut("web");
                }
                Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> client.pods().inNamespace(ns)
                        .withLabel("app", "sync").list().getItems().stream()
                        .filter(p -> p.getMetadata().getDeletionTimestamp() == null).count() >= 2);
            }
            awaitRolledOut("web");
            TimeUnit.SECONDS.sleep(2);
            System.out.printf("MoreKindsIT: %d pod events, %d samples at 100 ms; the pods held at most %d (events) and "
                    + "%d (polled) of a budget of %d%n", sampler.events(), poll.samples(), sampler.peak(), poll.peak(),
                    budget);
            // the sampler saw the Jobs overlap: at least 3 running Jobs of 2 pods at 2 each (12) beside web (4)
            assertThat(sampler.peak()).isGreaterThanOrEqualTo(12 + 4);
            assertThat(sampler.peak()).isLessThanOrEqualTo((int) budget);
            assertThat(poll.peak()).isLessThanOrEqualTo((int) budget);
        }
    }
}
