package io.poolbudget.decide;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.api.v1alpha1.AllocationMode;
import io.poolbudget.api.v1alpha1.AllocationSpec;
import io.poolbudget.sizing.Allocation;
import io.poolbudget.sizing.DatabaseInput;
import io.poolbudget.sizing.DemandSolver;
import io.poolbudget.sizing.Lending;
import io.poolbudget.sizing.PoolSizer;
import io.poolbudget.sizing.Rollout;
import io.poolbudget.sizing.TargetInput;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * {@link DemandCalm} through {@link DemandStep}: a quiet borrower gives back at once while another target waits, and
 * keeps what it has while nobody does; a size that just changed is not shrunk again by decay within the period. Three
 * targets of 1 pod each (Recreate), budget 12: nominal 4 each, floor 2, ceiling 8 (the benchmark's fleet).
 */
class DemandCalmTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final List<String> IDS = List.of("Deployment/a", "Deployment/b", "Deployment/c");
    private static final Allocation PLAN = PoolSizer.allocate(new DatabaseInput(1, 0, 2, null, 0, 12),
            IDS.stream().map(id -> TargetInput.builder(id).replicas(1).rollout(new Rollout.Recreate()).build())
                    .toList());
    private static final AllocationSpec SPEC = spec();

    private static AllocationSpec spec() {
        var s = new AllocationSpec();
        s.setMode(AllocationMode.Demand);
        return s;
    }

    private static DemandStep.Result pass(DemandState before, double seconds, double a, double b, double c) {
        double[] d = {a, b, c};
        List<DemandStep.Target> targets = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            targets.add(new DemandStep.Target(IDS.get(i), PLAN.target(IDS.get(i)), null, 4, d[i], "agent"));
        }
        return DemandStep.decide(SPEC, targets, before, T0.plusMillis((long) (seconds * 1000)));
    }

    /** A pass whose agents also say each target's recent demand (the high of their last two seconds). */
    private static DemandStep.Result pass(DemandState before, double seconds, double[] sample, double[] recent) {
        List<DemandStep.Target> targets = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            targets.add(new DemandStep.Target(IDS.get(i), PLAN.target(IDS.get(i)), null, 4, sample[i], "agent",
                    recent[i]));
        }
        return DemandStep.decide(SPEC, targets, before, T0.plusMillis((long) (seconds * 1000)));
    }

    /**
     * The benchmark's phase change: a borrowed all it could, its load moved to b at once. b's take-back to its nominal
     * share is not the period's rise, and a's recent demand, not its 10 s high that still holds its load, says it no
     * longer uses what it borrowed: b borrows it at the next pass, not a period after its take-back.
     */
    @Test
    void aTakeBackIsNotThePeriodsRiseAndABorrowersRecentDemandGivesBackWhatItNoLongerUses() {
        var before = aBorrowsAll();
        // 0.3 s into b's load: both 10 s highs and a's recent one still hold a's load
        var back = pass(before.state(), 15, new double[]{9, 9, 1}, new double[]{8, 9, 1});
        assertThat(sizes(back)).as("b takes its nominal back; a, busy by all it says, keeps the rest").isEqualTo(
                List.of(6, 4, 2));
        // 5 s later: a's 10 s high still holds its load, its last two seconds do not
        var next = pass(back.state(), 20, new double[]{9, 9, 1}, new double[]{1, 9, 1});
        assertThat(sizes(next)).as("a counts at its recent 1; b, whose take-back was not a rise, borrows").isEqualTo(
                List.of(2, 8, 2));
        assertThat(next.rows().get("Deployment/a").allocation()).startsWith("lends 2 of nominal 4 (demand 1 per pod");
        var without = pass(back.state(), 20, new double[]{9, 9, 1}, new double[]{9, 9, 1});
        assertThat(sizes(without)).as("without the recent demand: a still counts at its 10 s high").isEqualTo(
                List.of(6, 4, 2));
    }

    @Test
    void aRiseAboveTheNominalShareIsStillOnceAPeriod() {
        var lent = pass(DemandState.EMPTY, 0, new double[]{1, 5, 1}, new double[]{1, 5, 1});
        assertThat(sizes(lent)).isEqualTo(List.of(2, 6, 2));
        var soon = pass(lent.state(), 5, new double[]{1, 8, 1}, new double[]{1, 8, 1});
        assertThat(sizes(soon)).as("b rose above its nominal 5 s ago: no second rise within the period").isEqualTo(
                List.of(2, 6, 2));
        var later = pass(soon.state(), 10, new double[]{1, 8, 1}, new double[]{1, 8, 1});
        assertThat(sizes(later)).isEqualTo(List.of(2, 8, 2));
    }

    private static List<Integer> sizes(DemandStep.Result r) {
        return IDS.stream().map(id -> r.rows().get(id).size()).toList();
    }

    /** a busy for a while borrows c's and b's lent connections: 8, 2, 2 (a's smoothed demand 8). */
    private static DemandStep.Result aBorrowsAll() {
        var r = pass(DemandState.EMPTY, 0, 8, 0, 0);
        r = pass(r.state(), 10, 8, 0, 0);
        assertThat(sizes(r)).isEqualTo(List.of(8, 2, 2));
        return r;
    }

    @Test
    void aQuietBorrowerGivesBackAtOnceWhenAnotherTargetWaits() {
        var before = aBorrowsAll();
        // a's load ended: its watermark is 1; b is busy again. Smoothed, a would still want 4.5 (8 halfway to 1)
        var taken = pass(before.state(), 15, 1, 9, 0);
        assertThat(sizes(taken)).as("a, no longer smoothed, lends; b, which has not risen for a period, borrows it all")
                .isEqualTo(List.of(2, 8, 2));
        assertThat(taken.rows().get("Deployment/a").allocation()).startsWith("lends 2 of nominal 4 (demand 1 per pod");
        assertThat(taken.state().targets().get("Deployment/a").demand()).as("the next pass decays from there")
                .isEqualTo(1.0);
    }

    @Test
    void aQuietBorrowerKeepsItsConnectionsSmoothedWhileNobodyWaits() {
        var before = aBorrowsAll();
        var calm = pass(before.state(), 15, 1, 1, 0);
        assertThat(calm.rows().get("Deployment/a").demand()).as("smoothed: 8 halfway to 1 in half a period")
                .isEqualTo(6);
        assertThat(sizes(calm)).as("6 asks for 6 to 9: a keeps 8").isEqualTo(List.of(8, 2, 2));
    }

    @Test
    void aSizeThatJustChangedIsNotShrunkAgainByDecayWithinThePeriod() {
        var before = aBorrowsAll();
        var period = pass(before.state(), 20, 1, 1, 0);
        assertThat(sizes(period)).as("a period without demand: 4.5 asks for ⌈4.5⌉ + ⌊4.5 / 4⌋").isEqualTo(
                List.of(6, 2, 2));
        var soon = pass(period.state(), 27, 1, 1, 0);
        assertThat(soon.rows().get("Deployment/a").demand()).as("decayed to 3.2").isEqualTo(4);
        assertThat(sizes(soon)).as("it changed 7 s ago: kept").isEqualTo(List.of(6, 2, 2));
        assertThat(soon.rows().get("Deployment/a").allocation()).isEqualTo(
                "kept at 6: it changed less than a period ago (nominal 4, demand 4 per pod)");
        var later = pass(soon.state(), 30, 1, 1, 0);
        assertThat(sizes(later)).as("a period after its change it shrinks").isEqualTo(List.of(3, 2, 2));
    }

    @Test
    void aWaitingTargetIsNotKeptWaitingByABorrowerThatJustChanged() {
        var period = pass(aBorrowsAll().state(), 20, 1, 1, 0);
        assertThat(sizes(period)).isEqualTo(List.of(6, 2, 2));
        var waits = pass(period.state(), 22, 1, 5, 0);
        assertThat(sizes(waits)).as("b waits: a's sample, not its decay, and no keep").isEqualTo(List.of(2, 6, 2));
    }

    @Test
    void aLenderThatTakesBackSoonKeepsWhatItTookAndTakesNoMore() {
        var lent = pass(DemandState.EMPTY, 0, 1, 8, 1);
        assertThat(sizes(lent)).isEqualTo(List.of(2, 8, 2));
        var back = pass(lent.state(), 11, 3, 8, 1);
        assertThat(sizes(back)).as("a's callers wait: it takes 3 back at once").isEqualTo(List.of(3, 7, 2));
        var held = pass(back.state(), 20, 0, 8, 1);
        assertThat(sizes(held)).as("held: a lends no more, and takes no more from b either").isEqualTo(
                List.of(3, 7, 2));
        assertThat(held.rows().get("Deployment/a").allocation()).endsWith(LendingHold.HELD);
        var after = pass(held.state(), 32, 0, 8, 1);
        assertThat(sizes(after)).as("the hold over, a lends again and b, a period after its last rise, borrows it")
                .isEqualTo(List.of(2, 8, 2));
    }

    @Test
    void aLenderWhoseBlipHasPassedLendsAgainAtOnceWhileABorrowerWaits() {
        var blip = pass(aBorrowsAll().state(), 12, 8, 6, 0);
        assertThat(sizes(blip)).as("b takes its nominal back").isEqualTo(List.of(6, 4, 2));
        var passed = pass(blip.state(), 23, 8, 2, 0);
        assertThat(passed.rows().get("Deployment/b").allocation()).as("its hold over, at its watermark, not 3.9")
                .startsWith("lends 2 of nominal 4 (demand 2 per pod");
        assertThat(sizes(passed)).isEqualTo(List.of(8, 2, 2));
        var busyB = pass(aBorrowsAll().state(), 12, 1, 6, 0);
        assertThat(sizes(busyB)).as("a's load went elsewhere: b borrows").isEqualTo(List.of(2, 7, 2));
        var calm = pass(busyB.state(), 23, 1, 2, 0);
        assertThat(calm.rows().get("Deployment/b").size()).as("while nobody waits, smoothed (3.9): 4, not 2")
                .isEqualTo(4);
    }

    /**
     * Whatever the samples and the passes' timing, every pass fits the nominal sum and keeps each target within its
     * floor and ceiling.
     */
    @Property(tries = 500)
    void everyPassFitsTheNominalSumAndTheLimits(
            @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 100, max = 15_000) Integer> gapsMs,
            @ForAll @Size(min = 120, max = 120) List<@DoubleRange(min = 0, max = 30) Double> samples) {
        var lending = new Lending(SPEC.lendablePercentOrDefault(), SPEC.borrowingLimitPercentOrDefault());
        var state = DemandState.EMPTY;
        double at = 0;
        for (int i = 0; i < gapsMs.size(); i++) {
            at += gapsMs.get(i) / 1000.0;
            var r = pass(state, at, samples.get(3 * i), samples.get(3 * i + 1), samples.get(3 * i + 2));
            List<Integer> sizes = sizes(r);
            assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).as("pass %d", i).isLessThanOrEqualTo(12);
            for (int s : sizes) {
                assertThat(s).isBetween(DemandSolver.floor(4, 1, lending), DemandSolver.ceiling(4, null, lending));
            }
            state = r.state();
        }
    }
}
