package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.poolbudget.status.Conditions;
import io.poolbudget.status.StatusAggregator;

import static io.poolbudget.decide.PolicyPassTest.policy;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.Preset;
import io.poolbudget.planning.Workloads;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 41, found 2: during an adoption the pods started before the operator sized a Deployment carry no marker, so
 * the informer does not cache them and they are counted from its status. They must not drop out of the count for a
 * pass while the status catches up, nor the moment they are told to stop (they hold their pools until they exit).
 */
class UnmarkedPodsTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final Owner OWNER = new Owner("db");
    private static final InjectionSpec HIKARI = new InjectionSpec();

    static {
        HIKARI.setPreset(Preset.HIKARI_ENV);
    }

    /** web, 3 replicas, its template sized at 4 by the operator; status as given ({@code terminating} null: not counted). */
    private static Deployment web(int replicas, int updated, Integer terminating) {
        return new DeploymentBuilder().withNewMetadata().withName("web").withNamespace("ns").withUid("uid-web")
                .withGeneration(2L).endMetadata()
                .withNewSpec().withReplicas(3).withNewSelector().withMatchLabels(Map.of("app", "web")).endSelector()
                .withNewTemplate().withNewMetadata().withAnnotations(Map.of(OWNER.sizeAnnotation(), "4")).endMetadata()
                .withNewSpec().withTerminationGracePeriodSeconds(5L).addNewContainer().withName("app")
                .withEnv(new EnvVar("HIKARI_MAXIMUM_POOL_SIZE", "4", null)).endContainer().endSpec().endTemplate()
                .endSpec()
                .withNewStatus().withObservedGeneration(2L).withReplicas(replicas).withUpdatedReplicas(updated)
                .withAvailableReplicas(replicas).withReadyReplicas(replicas).withTerminatingReplicas(terminating)
                .endStatus().build();
    }

    /** A pod of the sized template (marked, pool 4). */
    private static Pod sized(String name) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns")
                .withLabels(Map.of("app", "web", Owner.SIZED_LABEL, "true", "pod-template-hash", "new"))
                .withAnnotations(Map.of(OWNER.sizeAnnotation(), "4")).endMetadata()
                .withNewSpec().addNewContainer().withName("app")
                .withEnv(new EnvVar("HIKARI_MAXIMUM_POOL_SIZE", "4", null))
                .endContainer().endSpec().build();
    }

    private final SettledWorkloads memory = new SettledWorkloads();

    private PodCounts.Live live(Instant at, Deployment web, Pod... pods) {
        var view = new ClusterView(List.of(web), List.of(), List.of(), List.of(pods), List.of(), memory, at);
        return view.live(Workloads.of(web, List.of()), OWNER, HIKARI, List.of("app"));
    }

    @Test
    void anOldPodIsNotDroppedWhenTheInformerSeesANewPodBeforeTheStatusCountsIt() {
        assertThat(live(NOW, web(3, 0, 0)).connections()).as("three old pods at HikariCP's 10").isEqualTo(30);
        // the new pod is in the informer, the status does not count it yet: still three old pods, and the new one
        var seen = live(NOW, web(3, 0, 0), sized("web-new-1"));
        assertThat(seen.connections()).as("not 2 x 10 + 4: the status's three pods are all old").isEqualTo(30 + 4);
        assertThat(seen.atDefault()).isEqualTo(30);
        // the status catches up (3 replicas: 2 old and the new one; the surge pod is not yet counted as updated)
        assertThat(live(NOW, web(4, 1, 0), sized("web-new-1")).connections()).isEqualTo(30 + 4);
    }

    @Test
    void aNewPodSeenBeforeTheStatusHasSeenTheTemplateHidesNoOldPod() {
        // found in NeverSilentIT: the operator wrote the template, the new ReplicaSet's first pod is in the informer,
        // and the Deployment's status has not yet observed the new generation (it counts the 2 old pods)
        Deployment stale = web(2, 2, 0);
        stale.getStatus().setObservedGeneration(1L);
        assertThat(live(NOW, stale, sized("web-new-1")).connections()).as("not 10 + 4: an all-clear at 14 of 16")
                .isEqualTo(20 + 4);
    }

    @Test
    void anOldPodToldToStopIsCountedWhileTheStatusCountsItTerminating() {
        live(NOW, web(4, 1, 0), sized("web-new-1"));
        // an old pod is told to stop: it leaves status.replicas and joins status.terminatingReplicas in one write
        var stopping = live(NOW, web(3, 1, 1), sized("web-new-1"));
        assertThat(stopping.connections()).as("2 old running + 1 old stopping, and the new pod").isEqualTo(30 + 4);
        assertThat(stopping.terminating()).isEqualTo(1);
        assertThat(stopping.departing()).isZero();
        // it has exited
        assertThat(live(NOW.plusSeconds(1), web(3, 1, 0), sized("web-new-1")).connections()).isEqualTo(20 + 4);
        // the rollout's last step: every replica is new and rolled out, the last old pod still stopping: not settled
        var last = live(NOW.plusSeconds(2), web(3, 3, 1), sized("web-new-1"), sized("web-new-2"), sized("web-new-3"));
        assertThat(last.connections()).isEqualTo(12 + 10);
        assertThat(live(NOW.plusSeconds(3), web(3, 3, 0), sized("web-new-1"), sized("web-new-2"), sized("web-new-3"))
                .connections()).isEqualTo(12);
        // settled now: a lagging status (a restart's rollout step) no longer counts a phantom pod
        assertThat(live(NOW.plusSeconds(4), web(4, 1, 1), sized("web-new-1"), sized("web-new-2"), sized("web-new-3"))
                .connections()).isEqualTo(12);
    }

    @Test
    void withoutATerminatingCountAnOldPodThatLeftMayHoldItsPoolUntilItsGracePeriodIsOver() {
        live(NOW, web(4, 1, null), sized("web-new-1"));
        var stopping = live(NOW, web(3, 1, null), sized("web-new-1"));
        assertThat(stopping.connections()).isEqualTo(20 + 4);
        assertThat(stopping.departing()).as("kept apart: it may have exited").isEqualTo(10);
        // a marked terminating pod never counts as one that left: the count of unmarked pods did not fall
        assertThat(live(NOW.plusSeconds(4), web(3, 1, null), sized("web-new-1")).departing()).isEqualTo(10);
        // terminationGracePeriodSeconds 5: the kubelet has stopped it by then
        assertThat(live(NOW.plusSeconds(5), web(3, 1, null), sized("web-new-1")).departing()).isZero();
        // a count that rises again (a scale-up) is no departure
        live(NOW.plusSeconds(6), web(5, 1, null), sized("web-new-1"));
        assertThat(live(NOW.plusSeconds(6), web(5, 1, null), sized("web-new-1")).departing()).isZero();
    }

    /** The same of an Argo Rollout's pods: its status, its ReplicaSets' sum, counts no terminating pod either. */
    @Test
    void anArgoRolloutsOldPodThatLeftMayHoldItsPoolUntilItsGracePeriodIsOver() {
        liveRollout(NOW, rollout(4, 1), sized("web-new-1"));
        var stopping = liveRollout(NOW, rollout(3, 1), sized("web-new-1"));
        assertThat(stopping.connections()).isEqualTo(20 + 4);
        assertThat(stopping.departing()).isEqualTo(10);
        assertThat(liveRollout(NOW.plusSeconds(4), rollout(3, 1), sized("web-new-1")).departing()).isEqualTo(10);
        assertThat(liveRollout(NOW.plusSeconds(5), rollout(3, 1), sized("web-new-1")).departing()).isZero();
    }

    private static io.poolbudget.api.argo.ArgoRollout rollout(int replicas, int updated) {
        var r = new io.poolbudget.api.argo.ArgoRollout();
        var d = web(replicas, updated, null);
        r.setMetadata(d.getMetadata());
        r.setSpec(new io.poolbudget.api.argo.ArgoRollout.Spec());
        r.getSpec().replicas = 3;
        r.getSpec().selector = d.getSpec().getSelector();
        r.getSpec().template = d.getSpec().getTemplate();
        r.setStatus(new io.poolbudget.api.argo.ArgoRollout.Status());
        r.getStatus().observedGeneration = "2";
        r.getStatus().replicas = replicas;
        r.getStatus().updatedReplicas = updated;
        r.getStatus().readyReplicas = replicas;
        r.getStatus().availableReplicas = replicas;
        return r;
    }

    private PodCounts.Live liveRollout(Instant at, io.poolbudget.api.argo.ArgoRollout web, Pod... pods) {
        var view = new ClusterView(List.of(), List.of(), List.of(), List.of(pods), List.of(), memory, at)
                .with(io.poolbudget.api.v1alpha1.WorkloadKind.Rollout, List.of(web));
        return view.live(io.poolbudget.planning.MoreKinds.of(web, List.of()), OWNER, HIKARI, List.of("app"));
    }

    @Test
    void podsThatMayStillHoldTheirPoolsEndAReportedOverBudgetMomentOnlyOnceTheyCannot() {
        // budget 16: 3 replicas + 1 surge + 1 terminating = 5 peak pods -> 3 per pod
        var p = policy("db", "database: {budget: 16}\ninjection: {preset: hikari-env}\ntargets: [{name: web}]\n");
        var aggregator = new StatusAggregator(Clock.fixed(NOW, ZoneOffset.UTC));
        live(NOW, web(4, 1, null), sized("web-new-1"));
        var view = new ClusterView(List.of(web(3, 1, null)), List.of(), List.of(), List.of(sized("web-new-1")),
                List.of(),
                memory, NOW);
        var result = Passes.run(p, view, List.of(p), new PolicyPassTest.RecordingWriter(), NOW, Duration.ZERO);
        assertThat(result.liveConnections()).isEqualTo(20 + 4);
        assertThat(result.departingConnections()).isEqualTo(10);
        // 24 of 16 by what the operator sees, so over the budget either way
        var over = aggregator.status(p, result, List.of(liveOver()));
        assertThat(condition(over, "Oversubscribed")).startsWith("True/LiveOverBudget: the pods may open 34 of 16 "
                + "connections now (terminating pods included; 20 of them at the app's default pool, for pods the "
                + "operator has not sized yet: what those may open, not what they hold; 10 of them in pods it did not "
                + "size that have left their workload and may still be shutting down, counted until their "
                + "terminationGracePeriodSeconds is over)");
        assertThat(over.getLiveConnections()).isEqualTo(34);
        // not reported before: the pods that may have exited do not start a moment over the budget
        var quiet = aggregator.status(p, result, List.of());
        assertThat(quiet.getLiveConnections()).isEqualTo(24);
    }

    /**
     * Issue 53, found 7: Miniflux's adoption Warning blamed "more pods ... than the plan's peak pods allow" while its 3
     * pods were within the 4 planned; the count was over the budget by one old pod counted at the app's default. The
     * message names the cause that holds, and blames the pod count only where the pods counted exceed the peak pods.
     */
    @Test
    void anOldPodCountedAtTheAppsDefaultIsNamedAsTheCauseAndThePodCountIsNotBlamed() {
        // budget 20: 3 replicas + 1 surge + 1 terminating = 5 peak pods -> 4 per pod; every replica new and rolled out,
        // one old pod (HikariCP's 10, unmarked) still stopping: 3 x 4 + 10 = 22 of 20, 4 pods of the 5 planned
        var p = policy("db", "database: {budget: 20}\ninjection: {preset: hikari-env}\ntargets: [{name: web}]\n");
        Pod[] pods = {sized("web-new-1"), sized("web-new-2"), sized("web-new-3")};
        live(NOW, web(4, 3, 0), pods); // the old pod, running
        var view = new ClusterView(List.of(web(3, 3, 1)), List.of(), List.of(), List.of(pods), List.of(), memory,
                NOW);
        var result = Passes.run(p, view, List.of(p), new PolicyPassTest.RecordingWriter(), NOW, Duration.ZERO);
        var status = new StatusAggregator(Clock.fixed(NOW, ZoneOffset.UTC)).status(p, result, List.of());
        assertThat(condition(status, "RolloutInProgress")).startsWith("False/");
        assertThat(condition(status, "Oversubscribed")).startsWith("True/LiveOverBudget: the pods may open 22 of 20")
                .contains("1 pod the operator has not sized yet (Deployment/web) may open the app's default pool (10 "
                        + "connections): it "
                        + "counts so until a pod the operator sized replaces it; the 4 pods are within the plan's 5 "
                        + "peak pods")
                .doesNotContain("peak pods allow");
    }

    @Test
    void morePodsThanThePeakPodsAreBlamedWhereThereAreMore() {
        // the same plan; 6 pods sized at 4 where the Deployment counts 3 (3 started outside a rollout): 6 pods of the
        // 5 planned, 24 of 20
        var p = policy("db", "database: {budget: 20}\ninjection: {preset: hikari-env}\ntargets: [{name: web}]\n");
        List<Pod> pods = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            pods.add(sized("web-new-" + i));
        }
        var view = new ClusterView(List.of(web(3, 3, null)), List.of(), List.of(), pods, List.of(), memory, NOW);
        var result = Passes.run(p, view, List.of(p), new PolicyPassTest.RecordingWriter(), NOW, Duration.ZERO);
        var status = new StatusAggregator(Clock.fixed(NOW, ZoneOffset.UTC)).status(p, result, List.of());
        assertThat(condition(status, "Oversubscribed")).startsWith("True/LiveOverBudget: the pods hold 24 of 20")
                .contains("more pods hold pools at once than the plan's peak pods allow for")
                .contains("Deployment/web runs 6 pods of its 5 peak pods and holds 24 of its 20 connections")
                .doesNotContain("not sized");
    }

    private static io.fabric8.kubernetes.api.model.Condition liveOver() {
        return new ConditionBuilder().withType(Conditions.OVERSUBSCRIBED).withStatus("True")
                .withReason(Conditions.REASON_LIVE_OVER_BUDGET).withMessage("x").build();
    }

    private static String condition(io.poolbudget.api.v1alpha1.PoolPolicyStatus s, String type) {
        return new ArrayList<>(s.getConditions()).stream().filter(c -> c.getType().equals(type))
                .map(c -> c.getStatus() + "/" + c.getReason() + ": " + c.getMessage()).findFirst().orElseThrow();
    }
}
