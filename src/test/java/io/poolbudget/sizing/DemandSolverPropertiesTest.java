package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Assume;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/** Invariants of the demand solver over random targets (jqwik shrinks any failure to a small case). */
class DemandSolverPropertiesTest {

    @Property(tries = 1000)
    void neverOverTheNominalSharesNorOutsideTheBounds(@ForAll("targets") List<DemandTarget> targets,
            @ForAll("lending") Lending lending) {
        var shares = DemandSolver.solve(targets, lending);
        long nominal = 0;
        long given = 0;
        for (int i = 0; i < targets.size(); i++) {
            DemandTarget t = targets.get(i);
            DemandShare s = shares.get(i);
            nominal += t.cost() * t.nominal();
            given += t.cost() * s.size();
            assertThat(s.floor()).isEqualTo(DemandSolver.floor(t.nominal(), t.minPoolSize(), lending));
            assertThat(s.ceiling()).isEqualTo(DemandSolver.ceiling(t.nominal(), t.maxPoolSize(), lending));
            assertThat(s.size()).as(t.id()).isBetween(s.floor(), s.ceiling()).isGreaterThanOrEqualTo(t.minPoolSize());
            if (t.maxPoolSize() != null) {
                assertThat(s.size()).as(t.id()).isLessThanOrEqualTo(t.maxPoolSize());
            }
            if (t.demand() == null) {
                assertThat(s.size()).as("%s reports no demand", t.id()).isEqualTo(t.nominal());
            } else if (t.demand() >= t.nominal()) {
                assertThat(s.size()).as("%s wants its nominal", t.id()).isGreaterThanOrEqualTo(t.nominal());
            }
            if (!t.mayRise()) {
                assertThat(s.size()).as("%s is held", t.id()).isLessThanOrEqualTo(Math.max(t.current(), t.nominal()));
            }
            assertThat(s.explanation()).isNotBlank().doesNotContain("\n");
        }
        assertThat(given).isLessThanOrEqualTo(nominal);
    }

    @Property(tries = 500)
    void everyTargetBusyGivesEachItsNominal(@ForAll("targets") List<DemandTarget> targets,
            @ForAll("lending") Lending lending) {
        List<DemandTarget> busy = targets.stream().map(t -> with(t, t.nominal() + Math.abs(t.id().hashCode() % 7) * 0.7,
                t.current())).toList();
        var shares = DemandSolver.solve(busy, lending);
        shares.forEach(s -> assertThat(s.size()).as(s.id()).isEqualTo(s.nominal()));
    }

    /**
     * Up to its nominal, a target gets what its demand asks in the pass the demand rises, whatever its current size and
     * its change-rate bound: a lender that lent connections away takes them back at once, held or not.
     */
    @Property(tries = 1000)
    void aTargetGetsItsDemandUpToItsNominalHeldOrNot(@ForAll("targets") List<DemandTarget> targets,
            @ForAll("lending") Lending lending) {
        var shares = DemandSolver.solve(targets, lending);
        for (int i = 0; i < targets.size(); i++) {
            DemandTarget t = targets.get(i);
            if (t.demand() != null) {
                int asked = (int) Math.ceil(t.demand() - 1e-9);
                assertThat(shares.get(i).size()).as("%s (demand %s, current %d, may rise %s)", t.id(), t.demand(),
                        t.current(), t.mayRise()).isGreaterThanOrEqualTo(Math.min(t.nominal(), asked));
            }
        }
    }

    @Property(tries = 1000)
    void steadyDemandChangesNothing(@ForAll("targets") List<DemandTarget> targets,
            @ForAll("lending") Lending lending) {
        var first = DemandSolver.solve(targets, lending);
        List<DemandTarget> again = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            again.add(with(targets.get(i), targets.get(i).demand(), first.get(i).size()));
        }
        var second = DemandSolver.solve(again, lending);
        for (int i = 0; i < targets.size(); i++) {
            assertThat(second.get(i).size()).as(targets.get(i).id()).isEqualTo(first.get(i).size());
        }
    }

    @Property(tries = 300)
    void theOrderOfTheTargetsChangesNothing(@ForAll("targets") List<DemandTarget> targets,
            @ForAll("lending") Lending lending) {
        var forward = DemandSolver.solve(targets, lending);
        var reversed = new ArrayList<>(targets);
        java.util.Collections.reverse(reversed);
        var backward = new ArrayList<>(DemandSolver.solve(reversed, lending));
        java.util.Collections.reverse(backward);
        assertThat(backward).isEqualTo(forward);
    }

    /**
     * A size set from demand d (with its headroom, not cut by a bound) stays while demand wanders within ±10% of d: for
     * a lender, and for a borrower with plenty lent (a large lender z beside it). Only from demand 4, the smallest d
     * where it holds: below it ⌊d / 4⌋ adds no headroom, so a 10% rise of a demand near a whole number (set at 1 from
     * 0.91, now 1.001) needs one more connection, which is a rise, not a flap. From 4 on, ⌈1.1 d⌉ ≤ ⌈d⌉ + ⌊d / 4⌋.
     */
    @Property(tries = 1000)
    void aWobbleOfTenPercentChangesNothing(@ForAll @IntRange(min = 1, max = 40) int nominal,
            @ForAll @IntRange(min = 1, max = 20) int cost, @ForAll @DoubleRange(min = 4, max = 60) double demand,
            @ForAll @DoubleRange(min = 0.9, max = 1.1) double f, @ForAll @IntRange(min = 10, max = 100) int lendable,
            @ForAll @IntRange(min = 0, max = 300) int borrowing) {
        Lending lending = new Lending(lendable, borrowing);
        var z = new DemandTarget("z", 1, 10_000, 50, 1, null, 0.0, 0, true);
        var set = DemandSolver.solve(List.of(new DemandTarget("t", 1, cost, nominal, 1, null, demand, 0, true), z),
                lending);
        int size = set.get(0).size();
        Assume.that(size == DemandSolver.sizeFor(demand));
        var wobbled = DemandSolver.solve(List.of(new DemandTarget("t", 1, cost, nominal, 1, null, demand * f, size,
                true), with(z, 0.0, set.get(1).size())), lending);
        assertThat(wobbled.get(0).size()).as("set at %d from demand %s, now %s", size, demand, demand * f)
                .isEqualTo(size);
    }

    private static DemandTarget with(DemandTarget t, Double demand, int current) {
        return new DemandTarget(t.id(), t.weight(), t.cost(), t.nominal(), t.minPoolSize(), t.maxPoolSize(), demand,
                current, t.mayRise());
    }

    @Provide
    Arbitrary<Lending> lending() {
        return Combinators.combine(Arbitraries.integers().between(0, 100), Arbitraries.integers().between(0, 300))
                .as(Lending::new);
    }

    @Provide
    Arbitrary<List<DemandTarget>> targets() {
        return Arbitraries.integers().between(1, 6).flatMap(n -> target().list().ofSize(n)).map(list -> {
            List<DemandTarget> out = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                DemandTarget t = list.get(i);
                out.add(new DemandTarget("t" + i, t.weight(), t.cost(), t.nominal(), t.minPoolSize(), t.maxPoolSize(),
                        t.demand(), t.current(), t.mayRise()));
            }
            return out;
        });
    }

    private static Arbitrary<DemandTarget> target() {
        Arbitrary<Integer> weight = Arbitraries.integers().between(1, 10);
        Arbitrary<Long> cost = Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just(0L)),
                Tuple.of(9, Arbitraries.longs().between(1, 20)));
        Arbitrary<Integer> min = Arbitraries.integers().between(1, 5);
        Arbitrary<Integer> above = Arbitraries.integers().between(0, 30);
        Arbitrary<Integer> room = Arbitraries.integers().between(-1, 20); // −1: no maxPoolSize
        Arbitrary<Double> demand = Arbitraries.doubles().between(0, 60).ofScale(2).injectNull(0.15);
        Arbitrary<Integer> current = Arbitraries.integers().between(0, 60);
        Arbitrary<Boolean> mayRise = Arbitraries.of(true, true, false);
        return Combinators.combine(weight, cost, min, above, room, demand, current, mayRise)
                .as((w, c, m, a, r, d, cur, rise) -> new DemandTarget("t", w, c, m + a, m, r < 0 ? null : m + a + r,
                        d, cur, rise));
    }
}
