package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Invariants of the allocation over random policies (jqwik shrinks any failure to a small case). */
class PoolSizerPropertiesTest {

    @Property(tries = 500)
    void neverExceedsTheBudgetWhenTheMinimumsFit(@ForAll("targets") List<TargetInput> targets,
            @ForAll @IntRange(min = 1, max = 3000) int budget) {
        var a = PoolSizer.allocate(db(budget), targets);
        long minimums = a.targets().stream().mapToLong(t -> t.peak().cost()
                * targets.stream().filter(i -> i.id().equals(t.id())).findFirst().orElseThrow().minPoolSize()).sum();
        if (minimums <= budget) {
            assertThat(a.verdict()).isEqualTo(Allocation.Verdict.FITS);
            assertThat(a.allocated()).isLessThanOrEqualTo(budget);
        } else {
            assertThat(a.verdict()).isEqualTo(Allocation.Verdict.OVERSUBSCRIBED);
            assertThat(a.allocated()).isEqualTo(minimums);
        }
        for (TargetInput t : targets) {
            int size = a.target(t.id()).poolSize();
            assertThat(size).isGreaterThanOrEqualTo(t.minPoolSize());
            if (t.maxPoolSize() != null) {
                assertThat(size).isLessThanOrEqualTo(t.maxPoolSize());
            }
        }
    }

    @Property(tries = 300)
    void theFitIsTheLargestCountAtWhichEveryMinimumStillFits(@ForAll("targets") List<TargetInput> targets,
            @ForAll @IntRange(min = 1, max = 3000) int budget,
            @ForAll @IntRange(min = 0, max = 100) int which) {
        var a = PoolSizer.allocate(db(budget), targets);
        TargetInput t = targets.get(which % targets.size());
        Fit fit = a.target(t.id()).fit();
        long r = fit.replicas();
        if (r > 0) {
            assertThat(minimumsFitAt(targets, t, r, budget)).as("%s at %d", t.id(), r).isTrue();
        }
        if (r < Limits.REPLICAS) {
            assertThat(minimumsFitAt(targets, t, r + 1, budget)).as("%s at %d", t.id(), r + 1).isFalse();
        }
    }

    /** Whether every target's minimum fits when {@code t}'s basis names {@code count}. */
    private static boolean minimumsFitAt(List<TargetInput> targets, TargetInput t, long count, int budget) {
        var basis = PeakPods.of(t).basis();
        var changed = basis == Basis.HPA_MAX && t.hpaMaxReplicas() != null
                ? t.toBuilder().hpaMaxReplicas((int) Math.max(1, count)).replicas((int) Math.min(t.replicas(), count))
                : t.toBuilder().replicas((int) count);
        var all = targets.stream().map(x -> x == t ? changed.build() : x).toList();
        return PoolSizer.allocate(db(budget), all).verdict() == Allocation.Verdict.FITS;
    }

    @Property(tries = 500)
    void moreBudgetNeverLowersASize(@ForAll("targets") List<TargetInput> targets,
            @ForAll @IntRange(min = 1, max = 3000) int budget,
            @ForAll @IntRange(min = 1, max = 500) int more) {
        var before = sizes(PoolSizer.allocate(db(budget), targets));
        var after = sizes(PoolSizer.allocate(db(budget + more), targets));
        before.forEach((id, size) -> assertThat(after.get(id)).as(id).isGreaterThanOrEqualTo(size));
    }

    @Property(tries = 500)
    void morePodsSeenTerminatingNeverRaiseTheirSize(@ForAll("targets") List<TargetInput> targets,
            @ForAll @IntRange(min = 1, max = 3000) int budget,
            @ForAll @IntRange(min = 0, max = 100) int which,
            @ForAll @IntRange(min = 1, max = 50) int seen) {
        assertMorePeakPodsNeverRaiseItsSize(targets, budget, which, b -> b.seenTerminating(seen));
    }

    @Property(tries = 500)
    void aLongerShutdownNeverRaisesASize(@ForAll("targets") List<TargetInput> targets,
            @ForAll @IntRange(min = 1, max = 3000) int budget,
            @ForAll @IntRange(min = 0, max = 100) int which,
            @ForAll @IntRange(min = 2, max = 20) int steps) {
        assertMorePeakPodsNeverRaiseItsSize(targets, budget, which, b -> b.shutdownSteps(steps));
    }

    /** One target changed so that it may have more old pods at once: never fewer peak pods, never a larger size. */
    private static void assertMorePeakPodsNeverRaiseItsSize(List<TargetInput> targets, int budget, int which,
            java.util.function.UnaryOperator<TargetInput.Builder> change) {
        int k = which % targets.size();
        var changed = new ArrayList<>(targets);
        TargetInput t = targets.get(k);
        changed.set(k, change.apply(t.toBuilder()).build());
        var before = PoolSizer.allocate(db(budget), targets);
        var after = PoolSizer.allocate(db(budget), changed);
        assertThat(after.target(t.id()).peak().total()).isGreaterThanOrEqualTo(before.target(t.id()).peak().total());
        assertThat(after.target(t.id()).poolSize()).isLessThanOrEqualTo(before.target(t.id()).poolSize());
    }

    @Property(tries = 500)
    void moreReplicasNeverRaiseASize(@ForAll("targets") List<TargetInput> targets,
            @ForAll @IntRange(min = 1, max = 3000) int budget,
            @ForAll @IntRange(min = 0, max = 100) int which,
            @ForAll @IntRange(min = 1, max = 20) int more) {
        int k = which % targets.size();
        var grown = new ArrayList<>(targets);
        TargetInput t = targets.get(k);
        grown.set(k, t.toBuilder().replicas(t.replicas() + more).build());
        var before = sizes(PoolSizer.allocate(db(budget), targets));
        var after = sizes(PoolSizer.allocate(db(budget), grown));
        before.forEach((id, size) -> assertThat(after.get(id)).as(id).isLessThanOrEqualTo(size));
    }

    @Property(tries = 500)
    void sizesFollowWeightsWithinRounding(@ForAll("targets") List<TargetInput> targets,
            @ForAll @IntRange(min = 1, max = 3000) int budget) {
        var a = PoolSizer.allocate(db(budget), targets);
        if (a.verdict() != Allocation.Verdict.FITS) {
            return;
        }
        for (TargetInput i : targets) {
            for (TargetInput j : targets) {
                int si = a.target(i.id()).poolSize();
                int sj = a.target(j.id()).poolSize();
                boolean iAboveMin = si > i.minPoolSize() && a.target(i.id()).peak().total() > 0;
                boolean jBelowMax = (j.maxPoolSize() == null || sj < j.maxPoolSize())
                        && a.target(j.id()).peak().total() > 0;
                if (i != j && iAboveMin && jBelowMax) {
                    // Sainte-Laguë: i's last step outranked j's next one.
                    assertThat((2L * si - 1) * j.weight()).as("%s=%d (w%d) vs %s=%d (w%d)", i.id(), si, i.weight(),
                            j.id(), sj, j.weight()).isLessThanOrEqualTo((2L * sj + 1) * i.weight());
                }
            }
        }
    }

    @Property(tries = 300)
    void theOrderOfTargetsChangesNothing(@ForAll("targets") List<TargetInput> targets,
            @ForAll @IntRange(min = 1, max = 3000) int budget, @ForAll long seed) {
        var shuffled = new ArrayList<>(targets);
        Collections.shuffle(shuffled, new Random(seed));
        var a = PoolSizer.allocate(db(budget), targets);
        var b = PoolSizer.allocate(db(budget), shuffled);
        assertThat(sizes(b)).isEqualTo(sizes(a));
        assertThat(b.unallocatedReason()).isEqualTo(a.unallocatedReason());
        assertThat(PoolSizer.allocate(db(budget), targets)).isEqualTo(a);
    }

    @Property(tries = 1000)
    void fastApportionmentMatchesTheStepByStepDefinition(@ForAll("targets") List<TargetInput> targets,
            @ForAll @IntRange(min = 0, max = 3000) int spare) {
        var input = PoolSizer.apportionment(targets, targets.stream().map(PeakPods::of).toArray(PeakPods[]::new), 3000);
        int[] fast = input.apportion(spare).sizes();
        assertThat(fast).isEqualTo(ReferenceApportionment.apportion(spare, input));
    }

    /** Large inputs, where the fast path bisects over many thousands of steps before sorting the rest. */
    @Property(tries = 40)
    void fastApportionmentMatchesTheDefinitionOnLargeInputs(@ForAll("manyTargets") List<TargetInput> targets,
            @ForAll @IntRange(min = 0, max = 200_000) int spare) {
        var input = PoolSizer.apportionment(targets, targets.stream().map(PeakPods::of).toArray(PeakPods[]::new),
                400_000);
        assertThat(input.apportion(spare).sizes()).isEqualTo(ReferenceApportionment.apportion(spare, input));
    }

    private static DatabaseInput db(int budget) {
        return new DatabaseInput(1, 0, 2, null, 0, budget);
    }

    private static Map<String, Integer> sizes(Allocation a) {
        return a.targets().stream().collect(Collectors.toMap(TargetAllocation::id, TargetAllocation::poolSize));
    }

    @Provide
    Arbitrary<List<TargetInput>> targets() {
        return target(Arbitraries.strings().withCharRange('a', 'f').ofMinLength(1).ofMaxLength(3))
                .list().ofMinSize(1).ofMaxSize(12).uniqueElements(TargetInput::id);
    }

    @Provide
    Arbitrary<List<TargetInput>> manyTargets() {
        return target(Arbitraries.integers().between(0, 1_000_000).map(i -> "t" + i))
                .list().ofMinSize(300).ofMaxSize(1500).uniqueElements(TargetInput::id);
    }

    private Arbitrary<TargetInput> target(Arbitrary<String> ids) {
        Arbitrary<Rollout> rollouts = Arbitraries.oneOf(
                Arbitraries.just(new Rollout.Recreate()), Arbitraries.just(new Rollout.Ordered()),
                Combinators.combine(amount(), amount()).as(Rollout.RollingUpdate::new));
        Arbitrary<Integer> minimum = Arbitraries.integers().between(1, 4);
        return Combinators.combine(
                ids, Arbitraries.integers().between(0, 30), Arbitraries.integers().between(1, 40).injectNull(0.6),
                rollouts, weights(),
                minimum, Arbitraries.integers().between(0, 30).injectNull(0.4), Arbitraries.integers().between(1, 3))
                .as((id, replicas, hpaMax, rollout, weight, min, extra, pools) -> TargetInput.builder(id)
                        .replicas(replicas).hpaMaxReplicas(hpaMax).rollout(rollout).weight(weight).minPoolSize(min)
                        .maxPoolSize(extra == null ? null : min + extra).poolsPerPod(pools).build());
    }

    /** Mostly small weights, sometimes extreme ones (1:1000 and beyond). */
    private Arbitrary<Integer> weights() {
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(8, Arbitraries.integers().between(1, 10)),
                net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(100, 5000)));
    }

    private Arbitrary<IntOrPercent> amount() {
        return Arbitraries.oneOf(Arbitraries.integers().between(0, 3).map(IntOrPercent::of),
                Arbitraries.integers().between(0, 100).map(IntOrPercent::percent));
    }

}
