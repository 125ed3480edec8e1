package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DemandSolverTest {
    private static final Lending HALF_AND_DOUBLE = new Lending(50, 100);

    /** weight 1, cost 1, nominal 8, minPoolSize 1, no max, may rise. */
    private static DemandTarget target(String id, Double demand, int current) {
        return new DemandTarget(id, 1, 1, 8, 1, null, demand, current, true);
    }

    private static DemandShare share(List<DemandShare> shares, String id) {
        return shares.stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow();
    }

    private static List<DemandShare> solve(DemandTarget... targets) {
        return DemandSolver.solve(List.of(targets), HALF_AND_DOUBLE);
    }

    @Test
    void floorAndCeilingKeepToTheBoundsAndNeverCrossNominal() {
        assertThat(DemandSolver.floor(8, 1, HALF_AND_DOUBLE)).isEqualTo(4);
        assertThat(DemandSolver.floor(7, 1, HALF_AND_DOUBLE)).isEqualTo(4); // lends floor(3.5) = 3
        assertThat(DemandSolver.floor(8, 6, HALF_AND_DOUBLE)).isEqualTo(6);
        assertThat(DemandSolver.floor(3, 5, HALF_AND_DOUBLE)).isEqualTo(3); // nominal below min: its own floor
        assertThat(DemandSolver.floor(8, 1, new Lending(0, 0))).isEqualTo(8);
        assertThat(DemandSolver.ceiling(8, null, HALF_AND_DOUBLE)).isEqualTo(16);
        assertThat(DemandSolver.ceiling(8, 12, HALF_AND_DOUBLE)).isEqualTo(12);
        assertThat(DemandSolver.ceiling(8, 5, HALF_AND_DOUBLE)).isEqualTo(8); // nominal above max: its own ceiling
        assertThat(DemandSolver.ceiling(7, null, new Lending(50, 50))).isEqualTo(10);
    }

    @Test
    void aTargetWithoutDemandTakesItsNominalShareBack() {
        var shares = solve(target("a", null, 12), target("b", 2.0, 4));
        assertThat(share(shares, "a").size()).isEqualTo(8);
        assertThat(share(shares, "a").explanation()).isEqualTo("nominal 8: no demand reported");
    }

    @Test
    void aLenderLendsDownToItsFloorAndABorrowerTakesOnlyWhatWasLent() {
        var a = new DemandTarget("a", 1, 2, 8, 1, null, 2.0, 8, true);
        var b = new DemandTarget("b", 1, 2, 8, 1, null, 14.0, 8, true);
        var shares = solve(a, b);
        assertThat(share(shares, "a").size()).isEqualTo(4);
        assertThat(share(shares, "a").explanation()).isEqualTo("lends 4 of nominal 8 (demand 2.0 per pod; floor 4)");
        assertThat(share(shares, "b").size()).isEqualTo(12);
        assertThat(share(shares, "b").explanation())
                .isEqualTo("borrows 4 above nominal 8 (demand 14.0 per pod, ceiling 16; no more is lent)");
    }

    @Test
    void aBorrowerStopsAtDemandWithHeadroomAndAtItsCeiling() {
        // three lenders lend 4 each; b wants ⌈9⌉ + ⌊9 / 4⌋ = 11, c its ceiling 16
        var shares = solve(target("a", 0.0, 8), target("b", 9.0, 8), target("c", 100.0, 8), target("d", 0.0, 8),
                target("e", 0.0, 8));
        assertThat(share(shares, "a").size()).isEqualTo(4);
        assertThat(share(shares, "b").size()).isEqualTo(11);
        assertThat(share(shares, "b").explanation()).isEqualTo("borrows 3 above nominal 8 (demand 9.0 per pod, "
                + "ceiling 16)");
        assertThat(share(shares, "c").size()).isEqualTo(16);
        assertThat(share(shares, "c").explanation()).isEqualTo("borrows 8 above nominal 8 (demand 100.0 per pod, "
                + "ceiling 16)");
        // with one lender's 4, equal weights share them step by step
        var fewer = solve(target("a", 0.0, 8), target("b", 9.0, 8), target("c", 100.0, 8));
        assertThat(share(fewer, "b").size()).isEqualTo(10);
        assertThat(share(fewer, "c").size()).isEqualTo(10);
    }

    @Test
    void theSizeSetFromDemandIsItsDemandRoundedUpPlusAWholeQuarter() {
        assertThat(DemandSolver.sizeFor(0.0)).isZero();
        assertThat(DemandSolver.sizeFor(1.0)).isEqualTo(1); // the burst is in the high watermark: no headroom
        assertThat(DemandSolver.sizeFor(2.0)).isEqualTo(2);
        assertThat(DemandSolver.sizeFor(3.5)).isEqualTo(4);
        assertThat(DemandSolver.sizeFor(3.99)).isEqualTo(4);
        assertThat(DemandSolver.sizeFor(4.0)).isEqualTo(5); // a quarter is one connection
        assertThat(DemandSolver.sizeFor(4.8)).isEqualTo(6);
        assertThat(DemandSolver.sizeFor(9.6)).isEqualTo(12);
        assertThat(DemandSolver.sizeFor(8.000000001)).isEqualTo(10); // a rounding error off 8 is 8
        assertThat(DemandSolver.sizeFor(7.999999999)).isEqualTo(10);
        assertThat(DemandSolver.sizeFor(1e300)).isEqualTo(Limits.POOL_SIZE);
    }

    @Test
    void inSmallPoolsAQuietTargetLendsAndTheBusyOneBorrowsIt() {
        // budget 6 for 3 targets by equal weights: nominal 2 each; a quiet target's high watermark is 1 in flight.
        // A former borrower (at 4) gone quiet is set from demand 1.0: ⌈1⌉ + ⌊1 / 4⌋ = 1, so it lends 1 of its 2
        var small = new Lending(50, 100);
        var quiet = DemandSolver.solve(List.of(new DemandTarget("a", 1, 1, 2, 1, null, 1.0, 4, true)), small);
        assertThat(quiet.get(0).size()).isEqualTo(1);
        assertThat(quiet.get(0).explanation()).isEqualTo("lends 1 of nominal 2 (demand 1.0 per pod; floor 1)");
        // from every target at its nominal 2: below a demand of 4 no band keeps 2 at demand 1, so both quiet targets
        // lend 1 and the busy one borrows both (the benchmark's 2,2,2 that never moved)
        var shares = DemandSolver.solve(List.of(new DemandTarget("a", 1, 1, 2, 1, null, 1.0, 2, true),
                new DemandTarget("b", 1, 1, 2, 1, null, 30.0, 2, true),
                new DemandTarget("c", 1, 1, 2, 1, null, 1.0, 2, true)), small);
        assertThat(shares).extracting(DemandShare::size).containsExactly(1, 4, 1);
        assertThat(share(shares, "b").explanation())
                .isEqualTo("borrows 2 above nominal 2 (demand 30.0 per pod, ceiling 4)");
        // a quiet target at 2 in flight needs all of its 2: nothing to lend, the busy one keeps its nominal
        var two = DemandSolver.solve(List.of(new DemandTarget("a", 1, 1, 2, 1, null, 2.0, 4, true),
                new DemandTarget("b", 1, 1, 2, 1, null, 30.0, 2, true)), small);
        assertThat(two).extracting(DemandShare::size).containsExactly(2, 2);
    }

    @Test
    void aLenderKeepsItsSizeWhileDemandWobbles() {
        // set from demand 4.8: ⌈4.8⌉ + ⌊4.8 / 4⌋ = 6
        assertThat(share(solve(target("a", 4.8, 4)), "a").size()).isEqualTo(6);
        for (double demand = 4.8 * 0.9; demand <= 4.8 * 1.1; demand += 0.05) {
            assertThat(share(solve(target("a", demand, 6)), "a").size()).as("demand %s", demand).isEqualTo(6);
        }
        // a third less demand: ⌈3.0 × 1.5⌉ = 5 < 6, so it shrinks to ⌈3⌉ + ⌊3 / 4⌋ = 3, held up at its floor 4
        assertThat(share(solve(target("a", 3.0, 6)), "a").size()).isEqualTo(4);
    }

    @Test
    void aBorrowerKeepsItsSizeWhileDemandWobbles() {
        var lender = target("a", 0.0, 4);
        var other = target("z", 0.0, 4);
        var set = solve(lender, other, target("b", 9.6, 8)); // ⌈9.6⌉ + ⌊9.6 / 4⌋ = 12
        assertThat(share(set, "b").size()).isEqualTo(12);
        for (double demand = 9.6 * 0.9; demand <= 9.6 * 1.1; demand += 0.05) {
            assertThat(share(solve(lender, other, target("b", demand, 12)), "b").size()).as("demand %s", demand)
                    .isEqualTo(12);
        }
        // demand above its size: it rises to its ceiling; a third less: it gives back down to demand with headroom
        assertThat(share(solve(lender, other, target("b", 15.0, 12)), "b").size()).isEqualTo(16);
        // ⌈7.2 × 1.5⌉ = 11 < 12: ⌈7.2⌉ + ⌊7.2 / 4⌋ = 9
        assertThat(share(solve(lender, other, target("b", 7.2, 12)), "b").size()).isEqualTo(9);
    }

    @Test
    void aLenderWhoseDemandRisesTakesBackAtOnceEvenWhileHeld() {
        var held = new DemandTarget("a", 1, 1, 8, 1, null, 6.5, 4, false);
        var rising = solve(held, target("b", 20.0, 12));
        assertThat(share(rising, "a").size()).isEqualTo(8); // ⌈6.5⌉ + ⌊6.5 / 4⌋ = 8, all of its nominal
        assertThat(share(rising, "b").size()).isEqualTo(8); // the lent pool is gone: it gives back
        assertThat(share(rising, "b").explanation())
                .isEqualTo("nominal 8: nothing lent to borrow (demand 20.0 per pod, ceiling 16)");
        var busy = new DemandTarget("a", 1, 1, 8, 1, null, 8.0, 4, false);
        var shares = solve(busy, target("b", 20.0, 12));
        assertThat(share(shares, "a").size()).isEqualTo(8);
        assertThat(share(shares, "a").explanation()).isEqualTo("nominal 8: demand 8.0 per pod fits it");
        assertThat(share(shares, "b").size()).isEqualTo(8);
        assertThat(share(shares, "b").explanation())
                .isEqualTo("nominal 8: every target is busy (demand 20.0 per pod)");
    }

    @Test
    void whenEveryTargetIsBusyEachHasItsNominal() {
        var shares = solve(target("a", 9.0, 12), target("b", 8.0, 4), target("c", 30.0, 16));
        shares.forEach(s -> assertThat(s.size()).as(s.id()).isEqualTo(8));
        assertThat(share(shares, "a").explanation()).isEqualTo("nominal 8: every target is busy (demand 9.0 per pod)");
    }

    @Test
    void aHeldBorrowerDoesNotRiseButMayStillShrink() {
        var lender = target("a", 0.0, 4);
        var held = new DemandTarget("b", 1, 1, 8, 1, null, 14.0, 10, false);
        var shares = solve(lender, held);
        assertThat(share(shares, "b").size()).isEqualTo(10);
        assertThat(share(shares, "b").explanation())
                .isEqualTo("held at 10: may not rise again yet (nominal 8, demand 14.0 per pod)");
        var reclaimed = solve(target("a", 7.5, 4), held);
        assertThat(share(reclaimed, "b").size()).isEqualTo(8);
        // where nothing more is lent, the pool stops it, not the hold: its line says so (seen on the real node)
        var spent = solve(target("a", 5.0, 4), held); // a at ⌈5⌉ + ⌊5 / 4⌋ = 6 lends 2, all of them b's
        assertThat(share(spent, "b").size()).isEqualTo(10);
        assertThat(share(spent, "b").explanation()).startsWith("borrows 2 above nominal 8 (demand 14.0 per pod")
                .endsWith("; no more is lent)");
    }

    @Test
    void stepsGoInFairOrderAndACheapTargetUsesWhatADearOneCannot() {
        var lender = new DemandTarget("a", 1, 7, 8, 1, null, 5.0, 7, true); // keeps 7: lends 1 × cost 7
        var dear = new DemandTarget("b", 1, 5, 8, 1, null, 50.0, 8, true);
        var cheap = new DemandTarget("c", 1, 1, 8, 1, null, 50.0, 8, true);
        var shares = solve(lender, dear, cheap);
        assertThat(share(shares, "a").size()).isEqualTo(7);
        assertThat(share(shares, "b").size()).isEqualTo(9); // 8 → 9 first (ties by id), costs 5
        assertThat(share(shares, "c").size()).isEqualTo(10); // b's next step does not fit the 2 left: c takes them
        var heavy = new DemandTarget("c", 3, 1, 8, 1, null, 50.0, 8, true);
        // 12 lent: c's steps 8 → 16 at 3/(s+½) all come before b's first at 1/8.5; b takes the last 4
        var weighted = solve(new DemandTarget("a", 1, 3, 8, 1, null, 0.0, 8, true), target("b", 50.0, 8), heavy);
        assertThat(share(weighted, "b").size()).isEqualTo(12);
        assertThat(share(weighted, "c").size()).isEqualTo(16);
    }

    @Test
    void solvingAgainWithTheSameDemandChangesNothing() {
        List<DemandTarget> targets = List.of(new DemandTarget("a", 2, 3, 10, 2, 14, 3.3, 10, true),
                new DemandTarget("b", 1, 2, 6, 1, null, 11.0, 6, true),
                new DemandTarget("c", 3, 1, 12, 1, 20, 40.0, 12, true), target("d", null, 3));
        var first = DemandSolver.solve(targets, HALF_AND_DOUBLE);
        List<DemandTarget> again = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            DemandTarget t = targets.get(i);
            again.add(new DemandTarget(t.id(), t.weight(), t.cost(), t.nominal(), t.minPoolSize(), t.maxPoolSize(),
                    t.demand(), first.get(i).size(), t.mayRise()));
        }
        assertThat(DemandSolver.solve(again, HALF_AND_DOUBLE)).isEqualTo(first);
    }

    @Test
    void aBorrowerWhoseDemandFallsWithinItsNominalKeepsWhatItHoldsWhileTheWobbleLasts() {
        var lender = target("a", 0.0, 4);
        // set at ⌈8.2⌉ + ⌊8.2 / 4⌋ = 11 above nominal 8; then demand 7.4 (−10%): ⌈7.4 × 1.5⌉ = 12 still reaches 11
        assertThat(share(solve(lender, target("b", 8.2, 8)), "b").size()).isEqualTo(11);
        var kept = solve(lender, target("b", 7.4, 11));
        assertThat(share(kept, "b").size()).isEqualTo(11);
        assertThat(share(kept, "b").explanation())
                .isEqualTo("borrows 3 above nominal 8 (demand 7.4 per pod, ceiling 16)");
        var quiet = solve(lender, target("b", 6.5, 11)); // ⌈6.5 × 1.5⌉ = 10 < 11: back to ⌈6.5⌉ + ⌊6.5 / 4⌋ = 8
        assertThat(share(quiet, "b").size()).isEqualTo(8);
        assertThat(share(quiet, "b").explanation())
                .isEqualTo("nominal 8: demand 6.5 per pod with headroom needs all of it");
    }

    @Test
    void theOtherExplanations() {
        var noPods = new DemandTarget("a", 1, 0, 8, 1, null, 30.0, 8, true);
        assertThat(share(solve(noPods), "a").explanation())
                .isEqualTo("nominal 8: no pods planned (demand 30.0 per pod)");
        assertThat(share(solve(noPods), "a").size()).isEqualTo(8);
        assertThat(share(solve(target("a", 7.0, 8)), "a").explanation())
                .isEqualTo("nominal 8: demand 7.0 per pod with headroom needs all of it");
        var noBorrowing = DemandSolver.solve(List.of(target("a", 0.0, 8), target("b", 14.0, 8)), new Lending(50, 0));
        assertThat(share(noBorrowing, "b").explanation())
                .isEqualTo("nominal 8: may not borrow (demand 14.0 per pod, ceiling 8)");
        assertThat(share(noBorrowing, "b").size()).isEqualTo(8);
    }

    @Test
    void badInputNamesTheField() {
        assertThatThrownBy(() -> new Lending(101, 100)).isInstanceOf(InvalidInputException.class)
                .hasMessage("allocation.lendablePercent must be at most 100, got 101");
        assertThatThrownBy(() -> new Lending(50, -1)).hasMessageContaining("allocation.borrowingLimitPercent");
        assertThatThrownBy(() -> target("a", Double.NaN, 8)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("demand of a");
        assertThatThrownBy(() -> target("a", -1.0, 8)).hasMessageContaining("demand of a");
        assertThatThrownBy(() -> new DemandTarget("a", 1, -1, 8, 1, null, null, 8, true))
                .hasMessageContaining("cost of a");
        assertThatThrownBy(() -> new DemandTarget("a", 1, 1, 8, 4, 3, null, 8, true))
                .hasMessageContaining("maxPoolSize of a");
        assertThatThrownBy(() -> solve(target("a", 1.0, 8), target("a", 2.0, 8)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("target a appears a second time");
    }
}
