package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.poolbudget.status.StatusAggregator;

import static io.poolbudget.decide.PolicyPassTest.policy;
import static io.poolbudget.decide.PolicyPassTest.web;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.planning.TerminatingMarks.Overlap;
import io.poolbudget.planning.Workload;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 20, found 3: only old pods of a rollout that overlap its new ones raise the plan for good. */
class RolloutOverlapTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");

    /** A labelled pod of web of revision {@code hash}, created {@code minute} minutes past nine. */
    private static Pod pod(String name, String hash, int minute, boolean terminating) {
        var b = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns")
                .withCreationTimestamp(String.format("2026-01-01T09:%02d:00Z", minute))
                .withLabels(Map.of("app", "web", Owner.SIZED_LABEL, "true", "pod-template-hash", hash)).endMetadata()
                .withNewSpec().addNewContainer().withName("app").endContainer().endSpec();
        if (terminating) {
            b.editMetadata().withDeletionTimestamp("2026-01-01T10:00:30Z").endMetadata();
        }
        return b.build();
    }

    private static ClusterView view(Pod... pods) {
        return new ClusterView(List.of(web(4)), List.of(), List.of(), List.of(pods), List.of());
    }

    /** web scaled to 3 replicas (by its HPA, whose maximum went from 8 to 3). */
    private static ClusterView threeReplicas(Pod... pods) {
        var web = web(4);
        web.getSpec().setReplicas(3);
        return new ClusterView(List.of(web), List.of(), List.of(), List.of(pods), List.of());
    }

    private static Workload webWorkload(ClusterView v) {
        return v.find(WorkloadKind.Deployment, "ns", "web").orElseThrow();
    }

    @Test
    void oldPodsOfARolloutCountAndPodsOfAScaleDownDoNot() {
        var rollout = view(pod("web-a1", "old", 1, true), pod("web-a2", "old", 1, true), pod("web-b1", "new", 5, false),
                pod("web-b2", "new", 6, false));
        assertThat(rollout.rolloutOverlap(webWorkload(rollout))).isEqualTo(new Overlap("new", 2));

        var scaleDown = view(pod("web-a1", "new", 5, true), pod("web-a2", "new", 5, true),
                pod("web-a3", "new", 5, false));
        assertThat(scaleDown.rolloutOverlap(webWorkload(scaleDown))).isEqualTo(new Overlap("new", 0));
        assertThat(scaleDown.terminatingNow(webWorkload(scaleDown))).isEqualTo(2);

        var allGoing = view(pod("web-a1", "new", 5, true));
        assertThat(allGoing.rolloutOverlap(webWorkload(allGoing))).isNull();
    }

    @Test
    void oldPodsAScaleDownRemovesAsARolloutStartsAreNotItsOverlap() {
        // issue 54, item 2: an HPA's maxReplicas lowered from 8 to 3 changes the plan, the operator's write starts a
        // rollout as the HPA scales down: 5 pods of the old revision terminate beside the 3 old ones that stay and the
        // rollout's first new pod (maxSurge 1). One new pod stands in the place of at most one old pod.
        List<Pod> pods = new java.util.ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            pods.add(pod("web-a" + i, "a", 1, i > 3));
        }
        pods.add(pod("web-b1", "b", 5, false));
        var start = view(pods.toArray(Pod[]::new));
        assertThat(start.rolloutOverlap(webWorkload(start))).isEqualTo(new Overlap("b", 1));
        assertThat(start.terminatingNow(webWorkload(start))).as("they hold their pools now").isEqualTo(5);

        // a rollout whose old pods outlast its steps: each old pod terminating has its replacement running
        var slow = view(pod("web-a1", "a", 1, true), pod("web-a2", "a", 1, true), pod("web-a3", "a", 1, false),
                pod("web-b1", "b", 5, false), pod("web-b2", "b", 6, false));
        assertThat(slow.rolloutOverlap(webWorkload(slow))).isEqualTo(new Overlap("b", 2));

        // an old pod whose replacement is not running yet (maxSurge 0, or Recreate, or a StatefulSet's ordinal) adds
        // no pod above the replicas: not an overlap until its replacement runs beside it
        var first = view(pod("web-a1", "a", 1, true), pod("web-a2", "a", 1, true), pod("web-a3", "a", 1, false),
                pod("web-b1", "b", 5, false));
        assertThat(first.rolloutOverlap(webWorkload(first))).isEqualTo(new Overlap("b", 1));
    }

    @Test
    void anHpaScaleDownBesideARolloutPlansForItsPodsOnlyWhileTheyTerminate() {
        var p = policy("db", PolicyPassTest.SPEC);
        List<Pod> pods = new java.util.ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            pods.add(pod("web-a" + i, "a", 1, i > 3));
        }
        pods.add(pod("web-b1", "b", 5, false));
        var during = pass(p, threeReplicas(pods.toArray(Pod[]::new)));
        assertThat(during.getTargets().get(0).getTerminatingSeen()).as("one rollout step, no more").singleElement()
                .satisfies(m -> assertThat(m.getPods()).isEqualTo(1));
        p.setStatus(during);
        var after = pass(p, threeReplicas(pod("web-b1", "b", 5, false), pod("web-b2", "b", 6, false),
                pod("web-b3", "b", 7, false)));
        assertThat(after.getTargets().get(0).getPeakPods()).as("3 + 1 surge + 1 terminating, as the rules say")
                .isEqualTo(5);
    }

    private static PoolPolicyStatus pass(PoolPolicy p, ClusterView v) {
        var result = Passes.run(p, v, List.of(p), new PolicyPassTest.RecordingWriter(), NOW, Duration.ofMinutes(3));
        return new StatusAggregator(Clock.fixed(NOW, ZoneOffset.UTC)).status(p, result);
    }

    @Test
    void afterAScaleDownPeakPodsFollowTheRulesAgainOnceItsPodsAreGone() {
        var p = policy("db", PolicyPassTest.SPEC);
        // 2 replicas now (scaled down from 6): 4 pods of the same revision are terminating, they hold pools now
        var during = pass(p, view(pod("web-1", "h", 1, false), pod("web-2", "h", 1, false), pod("web-3", "h", 1, true),
                pod("web-4", "h", 1, true), pod("web-5", "h", 1, true), pod("web-6", "h", 1, true)));
        assertThat(during.getTargets().get(0).getPeakPods()).as("2 + 1 surge + 4 terminating, at most the 2 replicas")
                .isEqualTo(2 + 1 + 2);
        assertThat(during.getTargets().get(0).getSeenTerminatingPods()).as("a scale-down is not remembered").isNull();
        p.setStatus(during);
        var after = pass(p, view(pod("web-1", "h", 1, false), pod("web-2", "h", 1, false)));
        assertThat(after.getTargets().get(0).getPeakPods()).as("2 + 1 surge + 1 terminating").isEqualTo(4);
    }

    @Test
    void aSlowRolloutRaisesPeakPodsUntilThreeLaterRolloutsDoNotRepeatIt() {
        var p = policy("db", PolicyPassTest.SPEC);
        // rollout to "b": both old pods terminate at once while the new ones run (their shutdown outlasts a step)
        p.setStatus(pass(p, view(pod("web-a1", "a", 1, true), pod("web-a2", "a", 1, true), pod("web-b1", "b", 5, false),
                pod("web-b2", "b", 6, false))));
        assertThat(p.getStatus().getTargets().get(0).getSeenTerminatingPods()).isEqualTo(2);
        int minute = 10;
        String previous = "b";
        for (String r : List.of("c", "d", "e")) {
            p.setStatus(pass(p,
                    view(pod("web-" + previous + "1", previous, minute, true), pod("web-" + r + "1", r, minute + 1,
                            false), pod("web-" + previous + "2", previous, minute, false))));
            p.setStatus(pass(p, view(pod("web-" + r + "1", r, minute + 1, false), pod("web-" + r + "2", r, minute + 2,
                    false))));
            assertThat(p.getStatus().getTargets().get(0).getPeakPods()).as("after rollout " + r)
                    .isEqualTo(r.equals("e") ? 4 : 2 + 1 + 2);
            previous = r;
            minute += 10;
        }
        assertThat(p.getStatus().getTargets().get(0).getTerminatingSeen()).extracting(m -> m.getRevision())
                .containsExactly("c", "d", "e");
    }
}
