package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** What a drain may evict at once, bounded by the PodDisruptionBudgets that select a target's pods. */
class DrainTermTest {
    private static final Rollout SURGE_ONE = new Rollout.RollingUpdate(IntOrPercent.of(1), IntOrPercent.of(0));

    @Test
    void theMeasuredDrainOfSixReplicasUnderHalfIsPlannedFor() {
        // issue 54: 6 replicas, maxSurge 1, a PDB maxUnavailable 50%: 9 pods at once (3 evicted terminating beside
        // their 3 replacements and the 3 others), where the plan held 8 = 6 + 1 surge + 1 terminating
        var pdb = new Disruption("PodDisruptionBudget/a", IntOrPercent.percent(50), null);
        var peak = PeakPods.of(TargetInput.builder("Deployment/a").replicas(6).rollout(SURGE_ONE)
                .disruptions(List.of(pdb)).build());
        assertThat(peak.total()).isEqualTo(10).isGreaterThanOrEqualTo(9);
        assertThat(peak.explanation()).contains("peak pods 10 = 6 (current replicas 6) + 1 surge + 3 terminating (a "
                + "drain may evict 3 at once: PodDisruptionBudget/a maxUnavailable 50%; they terminate beside their "
                + "replacements)");
        var without = PeakPods.of(TargetInput.builder("Deployment/a").replicas(6).rollout(SURGE_ONE).build());
        assertThat(without.total()).as("the plan the issue measured, without the budget").isEqualTo(8);
    }

    @Test
    void wavesOfADrainOverlapWhereAPodsShutdownSpansSeveralSteps() {
        // a budget counts Ready pods: once a wave's replacements are Ready the next wave is evicted, while the first
        // still runs its preStop; a shutdown spanning 2 steps holds 2 waves at once, as a rollout's old pods of 2 steps
        var pdb = new Disruption("PodDisruptionBudget/a", IntOrPercent.of(2), null);
        var peak = PeakPods.of(TargetInput.builder("Deployment/a").replicas(6).rollout(SURGE_ONE)
                .disruptions(List.of(pdb)).shutdownSteps(2).build());
        assertThat(peak.terminating()).isEqualTo(4);
        assertThat(peak.explanation()).contains("a drain may evict 2 at once: PodDisruptionBudget/a maxUnavailable 2"
                + ", and its pods' shutdown spans 2 steps");
        var long_ = PeakPods.of(TargetInput.builder("Deployment/a").replicas(6).rollout(SURGE_ONE)
                .disruptions(List.of(pdb)).shutdownSteps(5).build());
        assertThat(long_.terminating()).as("never more than the pods").isEqualTo(6);
        assertThat(long_.explanation()).contains("(at most the 6 pods)");
    }

    @Test
    void percentagesRoundAsTheDisruptionControllerRounds() {
        // maxUnavailable: scaled up (GetScaledValueFromIntOrPercent(..., true)); 50% of 5 = 2.5 -> 3
        assertThat(new Disruption("p", IntOrPercent.percent(50), null).pods(5)).isEqualTo(3);
        // minAvailable: scaled up too, so fewer may go: 50% of 5 -> 3 must stay, 2 may go
        assertThat(new Disruption("p", null, IntOrPercent.percent(50)).pods(5)).isEqualTo(2);
        assertThat(new Disruption("p", null, IntOrPercent.of(5)).pods(6)).isEqualTo(1);
        assertThat(new Disruption("p", null, IntOrPercent.of(9)).pods(6)).as("never negative").isZero();
        assertThat(new Disruption("p", IntOrPercent.of(9), null).pods(6)).as("never above the replicas").isEqualTo(6);
        assertThat(new Disruption("p", null, null).pods(6)).as("a budget setting neither bounds nothing").isEqualTo(6);
    }

    @Test
    void theMostRestrictiveOfSeveralBudgetsBounds() {
        var half = new Disruption("PodDisruptionBudget/half", IntOrPercent.percent(50), null);
        var one = new Disruption("PodDisruptionBudget/one", IntOrPercent.of(2), null);
        var peak = PeakPods.of(TargetInput.builder("d").replicas(8).rollout(SURGE_ONE)
                .disruptions(List.of(half, one)).build());
        assertThat(peak.terminating()).isEqualTo(2);
        assertThat(peak.explanation())
                .contains("a drain may evict 2 at once: PodDisruptionBudget/one maxUnavailable 2");
    }

    @Test
    void aBudgetWithinTheRolloutsAllowanceChangesNothing() {
        var one = new Disruption("PodDisruptionBudget/one", IntOrPercent.of(1), null);
        var peak = PeakPods.of(TargetInput.builder("d").replicas(6).rollout(SURGE_ONE).disruptions(List.of(one))
                .build());
        assertThat(peak.total()).isEqualTo(8);
        assertThat(peak.explanation()).contains("1 terminating (one rollout step").doesNotContain("drain");
    }

    @Test
    void disruptionPodsPlansForADrainWithoutABudget() {
        var peak = PeakPods.of(TargetInput.builder("d").field("spec.targets[0]").replicas(6).rollout(SURGE_ONE)
                .disruptionPods(4).build());
        assertThat(peak.total()).isEqualTo(11);
        assertThat(peak.explanation()).contains("4 terminating (a drain may evict 4 at once: "
                + "spec.targets[0].disruptionPods 4;");
        var above = PeakPods.of(TargetInput.builder("d").field("spec.targets[0]").replicas(6).rollout(SURGE_ONE)
                .disruptionPods(4).disruptions(List.of(new Disruption("PodDisruptionBudget/one", IntOrPercent.of(1),
                        null)))
                .build());
        assertThat(above.terminating()).as("the larger of the field and the budget").isEqualTo(4);
    }

    @Test
    void aStatefulSetsEvictedPodIsReplacedOnlyOnceGone() {
        // its replacement keeps the pod's name: the StatefulSet controller starts it once the evicted pod is gone
        var pdb = new Disruption("PodDisruptionBudget/db", null, IntOrPercent.of(2));
        var peak = PeakPods.of(TargetInput.builder("StatefulSet/db").replicas(5).rollout(new Rollout.Ordered())
                .disruptions(List.of(pdb)).disruptionPods(3).build());
        assertThat(peak.total()).isEqualTo(5);
        assertThat(peak.drainAdvice()).isNull();
    }

    @Test
    void withoutABudgetTheAdviceSaysADrainMayTakeANodesPods() {
        var bare = PeakPods.of(TargetInput.builder("Deployment/a").field("spec.targets[0]").replicas(6)
                .rollout(SURGE_ONE).build());
        assertThat(bare.drainAdvice()).isEqualTo("Deployment/a: no PodDisruptionBudget selects its pods, so a drain "
                + "may evict every pod of a node at once, and they terminate beside their replacements; the plan "
                + "counts 1 terminating. A PodDisruptionBudget (maxUnavailable) bounds that and is counted, or set "
                + "spec.targets[0].disruptionPods to the pods one node may hold");
        assertThat(PeakPods.of(TargetInput.builder("Deployment/a").replicas(6).rollout(SURGE_ONE)
                .disruptions(List.of(new Disruption("PodDisruptionBudget/a", IntOrPercent.of(1), null))).build())
                .drainAdvice()).as("a budget bounds it").isNull();
        assertThat(PeakPods.of(TargetInput.builder("Deployment/a").replicas(6).rollout(SURGE_ONE).disruptionPods(2)
                .build()).drainAdvice()).as("the target plans for it").isNull();
        assertThat(PeakPods.of(TargetInput.builder("Deployment/a").replicas(1).rollout(SURGE_ONE).build())
                .drainAdvice()).as("its one pod is counted terminating already").isNull();
    }

    @Property(tries = 1000)
    void theDrainTermNeverFallsBelowTheRolloutsAllowanceAndIsTheBudgetsAboveIt(
            @ForAll @IntRange(min = 0, max = 500) int replicas, @ForAll @IntRange(min = 0, max = 20) int surge,
            @ForAll @IntRange(min = 0, max = 20) int unavailable, @ForAll("budgets") Disruption pdb,
            @ForAll @IntRange(min = 0, max = 30) int seen) {
        var rollout = new Rollout.RollingUpdate(IntOrPercent.of(surge), IntOrPercent.of(unavailable));
        TargetInput plain = TargetInput.builder("d").replicas(replicas).rollout(rollout)
                .seenTerminating(seen == 0 ? null : seen).build();
        TargetInput drained = plain.toBuilder().disruptions(List.of(pdb)).build();
        PeakPods before = PeakPods.of(plain);
        PeakPods after = PeakPods.of(drained);
        assertThat(after.terminating()).isGreaterThanOrEqualTo(before.terminating());
        assertThat(after.terminating()).isLessThanOrEqualTo(Math.max(before.terminating(), after.basisReplicas()));
        long allowance = pdb.pods(after.basisReplicas());
        assertThat(allowance).isBetween(0L, after.basisReplicas());
        if (allowance > before.terminating()) {
            assertThat(after.terminating()).isEqualTo(allowance);
            assertThat(after.explanation()).contains("a drain may evict " + allowance + " at once: " + pdb.describe());
        } else {
            assertThat(after.terminating()).isEqualTo(before.terminating());
        }
        assertThat(after.total()).isEqualTo(after.basisReplicas() + after.surge() + after.terminating());
    }

    @Property(tries = 500)
    void aSecondBudgetNeverRaisesTheTerm(@ForAll @IntRange(min = 0, max = 500) int replicas,
            @ForAll("budgets") Disruption a, @ForAll("budgets") Disruption b) {
        TargetInput one = TargetInput.builder("d").replicas(replicas).rollout(SURGE_ONE).disruptions(List.of(a))
                .build();
        TargetInput both = one.toBuilder().disruptions(List.of(a, b)).build();
        assertThat(PeakPods.drained(both, replicas)).isLessThanOrEqualTo(PeakPods.drained(one, replicas))
                .isEqualTo(Math.min(a.pods(replicas), b.pods(replicas)));
    }

    @Provide
    Arbitrary<Disruption> budgets() {
        Arbitrary<IntOrPercent> value = Arbitraries.oneOf(Arbitraries.integers().between(0, 600).map(IntOrPercent::of),
                Arbitraries.integers().between(0, 100).map(IntOrPercent::percent));
        return Arbitraries.oneOf(value.map(v -> new Disruption("PodDisruptionBudget/x", v, null)),
                value.map(v -> new Disruption("PodDisruptionBudget/x", null, v)),
                Arbitraries.just(new Disruption("PodDisruptionBudget/x", null, null)));
    }
}
