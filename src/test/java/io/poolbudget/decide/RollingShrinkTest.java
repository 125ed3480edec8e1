package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import static io.poolbudget.decide.PolicyPassTest.policy;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStrategy;
import io.fabric8.kubernetes.api.model.apps.DeploymentStrategyBuilder;
import io.poolbudget.decide.PolicyPassTest.RecordingWriter;
import io.poolbudget.decide.TargetOutcome.State;
import io.poolbudget.status.StatusAggregator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 53, item 4: Keycloak's budget cut from 8 to 4 on the real node (2 replicas at pool 2, 25% / 25%: peak pods
 * 2 + 1 + 1, so pool 1). PostgreSQL saw 5 of 4 for about 2 minutes while it rolled: its 2 old pods at 2 beside the
 * surge pod at 1. The write and every pass while the old pods run say what it may hold, and what avoids it.
 */
public class RollingShrinkTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final String SPEC = """
            database: {budget: %d}
            injection: {preset: hikari-env%s}
            targets: [{name: kc%s}]
            """;
    public static final String NOTE = "lowering Deployment/kc 2 → 1 by a rolling update may hold up to 6 of the budget's 4 "
            + "connections while it rolls: 2 old pods at pool 2, 1 of them shutting down, beside 2 new at pool 1 (1 "
            + "surge pod, 1 replacement); 5 where each old pod closes its pool before its replacement opens one. To "
            + "avoid it: spec.injection.resize: Live lowers its running pods' pools in place, with no new pods; or "
            + "maxSurge: 0 on it (maxUnavailable 1) avoids the surge pods: up to 5, 4 where each old pod closes its "
            + "pool first (pool 1)";

    /** kc with {@code size} in its template; its pods at the sizes given (revision "a" at 2, "b" at 1). */
    private static ClusterView kc(int size, int replicas, int updated, int... pods) {
        return kc("HIKARI_MAXIMUM_POOL_SIZE", null, size, replicas, updated, pods);
    }

    private static ClusterView kc(String variable, DeploymentStrategy strategy, int size, int replicas, int updated,
            int... pods) {
        var owner = new Owner("db");
        Deployment kc = new DeploymentBuilder().withNewMetadata().withName("kc").withNamespace("ns").withUid("uid-kc")
                .withGeneration(2L).endMetadata()
                .withNewSpec().withReplicas(2).withStrategy(strategy).withNewSelector()
                .withMatchLabels(Map.of("app", "kc")).endSelector()
                .withNewTemplate().withNewMetadata().withAnnotations(Map.of(owner.sizeAnnotation(), "" + size))
                .endMetadata()
                .withNewSpec().addNewContainer().withName("app")
                .withEnv(new EnvVar(variable, "" + size, null)).endContainer().endSpec()
                .endTemplate().endSpec()
                .withNewStatus().withObservedGeneration(2L).withReplicas(replicas).withUpdatedReplicas(updated)
                .withAvailableReplicas(2).withReadyReplicas(2).endStatus().build();
        List<Pod> running = new ArrayList<>();
        for (int i = 0; i < pods.length; i++) {
            running.add(pod("kc-" + i, variable, pods[i]));
        }
        return new ClusterView(List.of(kc), List.of(), List.of(), running, List.of(), new SettledWorkloads(), NOW);
    }

    private static Pod pod(String name, String variable, int size) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns")
                .withLabels(Map.of("app", "kc", Owner.SIZED_LABEL, "true", "pod-template-hash", size == 2 ? "a" : "b"))
                .withAnnotations(Map.of(new Owner("db").sizeAnnotation(), Integer.toString(size))).endMetadata()
                .withNewSpec().addNewContainer().withName("app")
                .withEnv(new EnvVar(variable, Integer.toString(size), null)).endContainer().endSpec()
                .build();
    }

    private static PassResult run(String spec, ClusterView view, RecordingWriter writer) {
        var p = policy("db", spec);
        return Passes.run(p, view, List.of(p), writer, NOW, Duration.ofMinutes(3));
    }

    @Test
    void theWriteSaysWhatTheRolloutMayHoldAndWhatAvoidsIt() {
        var writer = new RecordingWriter();
        var result = run(SPEC.formatted(4, "", ""), kc(2, 2, 2, 2, 2), writer);
        assertThat(writer.applied).hasSize(1);
        assertThat(result.targets()).singleElement().satisfies(t -> {
            assertThat(t.wrote()).isTrue();
            assertThat(t.state()).isEqualTo(State.Rolling);
            assertThat(t.transition()).isEqualTo(NOTE);
            assertThat(t.message()).isEqualTo("lower size 2 → 1 applies at once; " + NOTE);
            assertThat(t.messageAlone()).isEqualTo("lower size 2 → 1 applies at once");
        });
        var status = new StatusAggregator(Clock.fixed(NOW, ZoneOffset.UTC)).status(policy("db", SPEC.formatted(4, "",
                "")), result);
        assertThat(status.getConditions()).filteredOn(c -> c.getType().equals("RolloutInProgress")).singleElement()
                .satisfies(c -> assertThat(c.getMessage()).contains(NOTE));
        assertThat(status.getConditions()).as("a prediction, not a problem the database has")
                .filteredOn(c -> c.getType().equals("Ready") || c.getType().equals("Oversubscribed"))
                .allSatisfy(c -> assertThat(c.getMessage()).doesNotContain("may hold up to"))
                .filteredOn(c -> c.getType().equals("Ready")).singleElement()
                .satisfies(c -> assertThat(c.getStatus()).isEqualTo("True"));
    }

    /** While the old pods run, every pass says it again, in the same words: no status churn. */
    @Test
    void whileItsOldPodsRunItStaysSaid() {
        var result = run(SPEC.formatted(4, "", ""), kc(1, 3, 1, 2, 2, 1), new RecordingWriter());
        assertThat(result.targets()).singleElement().satisfies(t -> {
            assertThat(t.wrote()).isFalse();
            assertThat(t.state()).isEqualTo(State.Rolling);
            assertThat(t.message()).isEqualTo("rolling out; " + NOTE);
        });
        // once they are gone, nothing is
        var done = run(SPEC.formatted(4, "", ""), kc(1, 2, 2, 1, 1), new RecordingWriter());
        assertThat(done.targets().get(0).transition()).isNull();
    }

    @Test
    void aCutThatLeavesRoomSaysNothing() {
        // budget 6: pool 1 (6 / 4 peak pods), and the rollout's 6 fit
        var result = run(SPEC.formatted(6, "", ""), kc(2, 2, 2, 2, 2), new RecordingWriter());
        assertThat(result.targets().get(0).wrote()).isTrue();
        assertThat(result.targets().get(0).transition()).isNull();
        assertThat(result.targets().get(0).message()).isEqualTo("lower size 2 → 1 applies at once");
        // maxSurge 0 and one old pod at a time shutting down at most: its 2 × 2 + 1 fit a budget of 5
        var noSurge = run(SPEC.formatted(5, "", ", terminatingPods: 1"), kcWithoutSurge(), new RecordingWriter());
        assertThat(noSurge.targets().get(0).wrote()).isTrue();
        assertThat(noSurge.targets().get(0).transition()).isNull();
    }

    private static ClusterView kcWithoutSurge() {
        return kc("HIKARI_MAXIMUM_POOL_SIZE", new DeploymentStrategyBuilder().withType("RollingUpdate")
                .withNewRollingUpdate().withMaxSurge(new IntOrString(0)).withMaxUnavailable(new IntOrString(1))
                .endRollingUpdate().build(), 2, 2, 2, 2, 2);
    }

    /** Live is named only where it could serve: a pool the agent resizes, and a policy that does not resize live. */
    @Test
    void liveIsNamedOnlyWhereItCouldServe() {
        // Ecto reads its POOL_SIZE once, at start: no agent resizes it
        var ecto = run(SPEC.formatted(4, "", "").replace("hikari-env", "ecto"),
                kc("POOL_SIZE", null, 2, 2, 2, 2, 2), new RecordingWriter());
        assertThat(ecto.targets().get(0).transition()).doesNotContain("resize: Live")
                .endsWith("To avoid it: maxSurge: 0 on it (maxUnavailable 1) avoids the surge pods: up to 5, 4 where "
                        + "each old pod closes its pool first (pool 1)");
        // resize Live, where the operator can add its agent: this write adds it and rolls the pods once
        var p = policy("db", SPEC.formatted(4, ", resize: Live", ""));
        var decision = PolicyPass.decide(p, kc(2, 2, 2, 2, 2), List.of(p), null, NOW, Duration.ofMinutes(3),
                "operator:1");
        assertThat(decision.writes()).singleElement().satisfies(w -> assertThat(w.written().transition())
                .contains("To avoid it: resize: Live takes its later sizes in place, and this rollout adds its agent"));
        // resize Live where the agent is in already: the size reaches the running pods in place, nothing rolls
        var in = PolicyPass.decide(p, kcWithAgent(), List.of(p), null, NOW, Duration.ofMinutes(3), "operator:1");
        assertThat(in.writes()).singleElement().satisfies(w -> assertThat(w.written().transition()).isNull());
    }

    private static ClusterView kcWithAgent() {
        var view = kc(2, 2, 2, 2, 2);
        var d = view.object(view.find(io.poolbudget.api.v1alpha1.WorkloadKind.Deployment, "ns", "kc").orElseThrow());
        var c = ((Deployment) d).getSpec().getTemplate().getSpec().getContainers().get(0);
        c.setEnv(new ArrayList<>(c.getEnv()));
        c.getEnv().add(new EnvVar("JAVA_TOOL_OPTIONS", LiveResize.javaAgent(new Owner("db")), null));
        return view;
    }
}
