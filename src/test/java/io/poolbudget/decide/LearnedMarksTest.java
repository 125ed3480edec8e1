package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import static io.poolbudget.decide.PolicyPassTest.policy;
import static io.poolbudget.decide.PolicyPassTest.web;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.planning.TerminatingMarks.Overlap;
import io.poolbudget.status.Conditions;
import io.poolbudget.status.StatusAggregator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 53, found 11: a mark learned from the operator's own churn. In mode EnvFrom a user's template change started a
 * revision whose first pod the operator's write of the new size replaced within the same second; that pod, slow to
 * stop, was remembered as "2 of its pods were seen terminating at once", and the policy stayed Oversubscribed (12 of
 * 10, Ready=False) until the end of the test, for such a mark lasted 3 rollouts that never came.
 */
class LearnedMarksTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    /** 2 replicas, 1 surge, 1 terminating: 4 peak pods; a budget of 4 fits them at a pool of 1 and no more. */
    private static final String TIGHT = PolicyPassTest.SPEC.replace("{cores: 8}", "{cores: 8, budget: 4}");

    /** A pod of web of revision {@code hash}, started at pool {@code size}, created {@code minute} minutes past nine. */
    private static Pod pod(String name, String hash, String size, int minute, boolean terminating) {
        var b = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns")
                .withCreationTimestamp(String.format("2026-01-01T09:%02d:00Z", minute))
                .withLabels(Map.of("app", "web", Owner.SIZED_LABEL, "true", "pod-template-hash", hash))
                .withAnnotations(Map.of("pool-size.poolbudget.io/db", size, "config-hash.poolbudget.io/db", "h" + size))
                .endMetadata().withNewSpec().addNewContainer().withName("app").endContainer().endSpec();
        if (terminating) {
            b.editMetadata().withDeletionTimestamp("2026-01-01T10:00:30Z").endMetadata();
        }
        return b.build();
    }

    private static ClusterView view(Instant now, Pod... pods) {
        return new ClusterView(List.of(web(1)), List.of(), List.of(), List.of(pods), List.of(),
                new SettledWorkloads(), now);
    }

    private static Overlap overlap(Pod... pods) {
        var v = view(NOW, pods);
        return v.rolloutOverlap(v.find(WorkloadKind.Deployment, "ns", "web").orElseThrow());
    }

    private static PoolPolicyStatus pass(PoolPolicy p, ClusterView v) {
        var result = Passes.run(p, v, List.of(p), new PolicyPassTest.RecordingWriter(), NOW, Duration.ofMinutes(3));
        return new StatusAggregator(Clock.fixed(NOW, ZoneOffset.UTC)).status(p, result);
    }

    private static Condition condition(PoolPolicyStatus s, String type) {
        return s.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElseThrow();
    }

    private static Condition ready(PoolPolicyStatus s) {
        return condition(s, Conditions.READY);
    }

    @Test
    void podsOfARevisionTheOperatorsOwnWriteReplacedAreNoEvidenceOfSlowShutdowns() {
        // "a" ran at pool 2; the user's change made "u" (still at pool 2), whose first pod the operator's write of
        // pool 1 ("b") replaced at once; that pod is slow to stop, beside one old pod of a rollout step
        assertThat(overlap(pod("web-a1", "a", "2", 1, true), pod("web-a2", "a", "2", 1, false),
                pod("web-u1", "u", "2", 50, true), pod("web-b1", "b", "1", 50, false)))
                .as("one old pod of the rollout's step, not the replaced revision's pod")
                .isEqualTo(new Overlap("b", 1));
        // the rollout the operator's write started from still counts, all of its old pods
        assertThat(overlap(pod("web-a1", "a", "2", 1, true), pod("web-a2", "a", "2", 1, true),
                pod("web-b1", "b", "1", 50, false), pod("web-b2", "b", "1", 51, false)))
                .isEqualTo(new Overlap("b", 2));
        // two changes of the user's in a row carry the same sizes: the operator wrote nothing in between
        assertThat(overlap(pod("web-a1", "a", "1", 1, true), pod("web-u1", "u", "1", 50, true),
                pod("web-b1", "b", "1", 51, false), pod("web-b2", "b", "1", 52, false))).isEqualTo(new Overlap("b", 2));
    }

    @Test
    void aLearnedMarkFadesWithTimeToo() {
        var p = policy("db", PolicyPassTest.SPEC);
        p.setStatus(Serialization.unmarshal("targets: [{kind: Deployment, name: web, seenTerminatingPods: 2, "
                + "terminatingSeen: [{revision: b, pods: 2, seen: '2026-01-01T09:00:00Z'}]}]", PoolPolicyStatus.class));
        var later = pass(p, view(NOW.plus(Duration.ofHours(24))));
        assertThat(later.getTargets().get(0).getPeakPods()).as("24 h after it was seen, without a rollout since")
                .isEqualTo(4);
        assertThat(later.getTargets().get(0).getTerminatingSeen()).isNull();
        var within = pass(p, view(NOW));
        assertThat(within.getTargets().get(0).getPeakPods()).as("2 + 1 surge + 2 seen terminating").isEqualTo(5);
        assertThat(Serialization.asJson(within.getTargets().get(0).getTerminatingSeen()))
                .as("when it was seen, written once, as it was").contains("\"seen\":\"2026-01-01T09:00:00Z\"");
    }

    @Test
    void aLearnedMarkThatTakesThePolicyPastItsBudgetSaysSoAndHowToClearIt() {
        var p = policy("db", TIGHT);
        p.setStatus(Serialization.unmarshal("targets: [{kind: Deployment, name: web, seenTerminatingPods: 2, "
                + "terminatingSeen: [{revision: b, pods: 2, seen: '2026-01-01T09:00:00Z'}]}]", PoolPolicyStatus.class));
        var status = pass(p, view(NOW));
        assertThat(ready(status).getReason()).isEqualTo(Conditions.REASON_OVERSUBSCRIBED);
        assertThat(ready(status).getMessage()).as(ready(status).getMessage())
                .contains("a mark learned from slow shutdowns the operator saw that takes the minimums past the budget")
                .contains("2 of its old pods were seen terminating at once")
                .contains("at 2026-01-02T09:00:00Z").contains("after 3 later rollouts")
                .contains("set spec.targets[0].terminatingPods: 1");
        var pinned = policy("db", TIGHT.replace("{name: web}", "{name: web, terminatingPods: 1}"));
        pinned.setStatus(p.getStatus());
        assertThat(condition(pass(pinned, view(NOW)), Conditions.OVERSUBSCRIBED).getStatus())
                .as("the fix the message names").isEqualTo("False");
        // where the minimums do not fit even without the mark, the mark is not blamed
        var small = policy("db", TIGHT.replace("budget: 4", "budget: 3"));
        small.setStatus(p.getStatus());
        assertThat(ready(pass(small, view(NOW))).getMessage()).doesNotContain("slow shutdowns");
    }
}
