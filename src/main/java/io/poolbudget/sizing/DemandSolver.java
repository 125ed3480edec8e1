package io.poolbudget.sizing;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The allocation by demand: each target's nominal pool (PoolSizer's, by weights) is its guarantee; a target that wants
 * less lends part of it, and targets that want more borrow only what was lent. So Σ size × cost never exceeds
 * Σ nominal × cost, which PoolSizer already fitted to the budget at peak pods.
 *
 * <p>Rules, per target (demand d is connections wanted per pod, rounded up where it meets a size):
 * <ul>
 * <li>No demand reported, or no pods planned: its nominal.
 * <li>Its goal: its current size while that lies between d and d × {@link #SLACK} (and within [floor, ceiling]; from
 * a demand of {@link #BAND_FROM} on, below it ⌈d⌉);
 * otherwise {@link #sizeFor(double) sizeFor(d)} = ⌈d⌉ + ⌊d / 4⌋, within [floor, ceiling].
 * <li>A goal at or below nominal is its size at once, even while its change-rate bound holds it: below nominal it
 * lends the rest; up to nominal is its guarantee, so a lender whose demand rises takes it back at once.
 * <li>A goal above nominal is borrowed: first every borrower keeps what it already holds above nominal (up to its
 * goal); then each rises toward its goal, unless its change-rate bound holds it. Both in one fair order of steps
 * ({@link DemandBorrowing}), each step paid from the lent connections, until the next does not fit. A lender that
 * reclaims shrinks the lent pool, and so the borrowers, down to their nominal at least.
 * </ul>
 * The headroom of sizeFor and SLACK are the hysteresis: for d ≥ 4 a size set from demand d stays while demand
 * wanders within ±10% of d (⌈1.1 d⌉ ≤ ⌈d⌉ + ⌈d / 10⌉ ≤ ⌈d⌉ + ⌊d / 4⌋, and ⌈1.5 × 0.9 d⌉ ≥ ⌈d⌉ + ⌊d / 4⌋). Below 4 there
 * is no headroom, so a 10% rise of a demand just under a whole number asks for one more connection: a rise, not a
 * flap. Solving again with the same demand and current = the last sizes gives the same sizes. Pure and
 * deterministic: ties go by id, so the input's order changes nothing.
 */
public final class DemandSolver {
    private DemandSolver() {}

    /**
     * The size set from demand d: ⌈d⌉ plus a quarter of d in whole connections, rounded down (1 → 1, 2 → 2, 3.5 → 4,
     * 4 → 5, 4.8 → 6, 9.6 → 12). The agent's demand is already its high watermark over its window, so the burst is in
     * it; the headroom adds a connection only where a quarter of the demand is at least one. A factor rounded up (the
     * old ⌈1.25 d⌉) turned a quiet target's demand of 1 into 2, a small pool's whole nominal, so it lent nothing.
     */
    static int sizeFor(double demand) {
        long quarter = (long) Math.min(Limits.POOL_SIZE, Math.floor(demand / 4 + TOLERANCE));
        return (int) Math.min(Limits.POOL_SIZE, wanted(demand, 1) + quarter);
    }

    /**
     * A size is kept while d × SLACK, rounded up, still reaches it: demand must fall by a third before it shrinks. One
     * factor of 1.25 for both would let a 10% fall shrink a size just set (set at 4 from demand 2.41, 2.17 shrank it).
     */
    static final double SLACK = 1.5;

    /**
     * The band applies from a demand of 3: a size set from 4 on (where sizeFor's headroom begins) keeps it through a
     * 10% fall (to 3.6). Below 3 a size is its demand rounded up:
     * with SLACK a pool of 2 was kept at a demand of 1 (⌈1.5⌉ = 2), so a quiet target at a nominal of 2 never lent
     * (measured: at a budget of 6 for three targets the allocation never moved). A small demand does not flap for all
     * that: the agent reports whole connections, a rise is taken at once and a fall decays over half-lives
     * ({@link DemandSignal}), so a size of 1 goes to 2 and back at most once per blip and decay.
     */
    static final double BAND_FROM = 3;

    /** {@link #solve(List, Lending, Function)} with each demand said to a tenth of a connection. */
    public static List<DemandShare> solve(List<DemandTarget> targets, Lending lending) {
        return solve(targets, lending, t -> String.format(Locale.ROOT, "%.1f", t.demand()));
    }

    /**
     * The allocation; {@code demandSaid} gives a target's demand per pod (never null where it is asked) as its
     * explanation says it, so a caller that shows the demand rounded says the same number here.
     */
    public static List<DemandShare> solve(List<DemandTarget> targets, Lending lending,
            Function<DemandTarget, String> demandSaid) {
        requireUniqueIds(targets);
        int n = targets.size();
        int[] floor = new int[n];
        int[] ceiling = new int[n];
        int[] sizes = new int[n];
        int[] held = new int[n];
        int[] top = new int[n];
        boolean allBusy = n > 0;
        long lent = 0;
        for (int i = 0; i < n; i++) {
            DemandTarget t = targets.get(i);
            floor[i] = floor(t.nominal(), t.minPoolSize(), lending);
            ceiling[i] = ceiling(t.nominal(), t.maxPoolSize(), lending);
            sizes[i] = t.nominal();
            held[i] = t.nominal();
            top[i] = t.nominal();
            allBusy &= t.demand() != null && wanted(t.demand(), 1) >= t.nominal();
            if (t.demand() == null || t.cost() == 0) {
                continue;
            }
            int goal = goal(t, floor[i], ceiling[i]);
            if (goal <= t.nominal()) { // at once, even while held: up to nominal is its guarantee
                sizes[i] = goal;
                held[i] = goal;
                top[i] = goal;
                lent = Limits.saturatedAdd(lent, Limits.saturatedMultiply(t.cost(), t.nominal() - goal));
            } else {
                boolean kept = goal == t.current();
                top[i] = kept || t.mayRise() ? goal : Math.min(Math.max(t.current(), t.nominal()), goal);
                held[i] = Math.min(Math.max(t.current(), t.nominal()), top[i]);
            }
        }
        var borrowing = new DemandBorrowing(targets.stream().mapToLong(DemandTarget::cost).toArray(),
                targets.stream().mapToInt(DemandTarget::weight).toArray(),
                targets.stream().map(DemandTarget::id).toArray(String[]::new), sizes, lent);
        borrowing.fill(held);
        borrowing.fill(top);
        List<DemandShare> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            DemandTarget t = targets.get(i);
            out.add(new DemandShare(t.id(), t.nominal(), floor[i], ceiling[i], sizes[i], t.demand(),
                    explain(t, demandSaid, floor[i], ceiling[i], sizes[i], top[i], allBusy,
                            borrowing.left() >= t.cost())));
        }
        return List.copyOf(out);
    }

    /**
     * The least a target is ever given: nominal less its lendable part (rounded down), never below minPoolSize. A
     * nominal below minPoolSize (PoolSizer never gives one) is its own floor: the solver never lowers it further.
     */
    public static int floor(int nominal, int minPoolSize, Lending lending) {
        long lendable = (long) nominal * lending.lendablePercent() / 100;
        return (int) Math.min(nominal, Math.max(minPoolSize, nominal - lendable));
    }

    /**
     * The most a target is ever given: nominal plus its borrowing limit (rounded down), never above maxPoolSize. A
     * nominal above maxPoolSize (PoolSizer never gives one) is its own ceiling: the solver never raises it above that.
     */
    public static int ceiling(int nominal, Integer maxPoolSize, Lending lending) {
        long borrowable = (long) nominal * lending.borrowingLimitPercent() / 100;
        long ceiling = Math.min(nominal + borrowable, maxPoolSize == null ? Limits.POOL_SIZE : maxPoolSize);
        return (int) Math.max(nominal, ceiling);
    }

    /** Keeps a demand a rounding error off a whole number at that number: 8.000000001 is 8, 7.999999999 too. */
    private static final double TOLERANCE = 1e-9;

    /** demand × factor, rounded up to whole connections (within {@link #TOLERANCE} of one, that one). */
    private static int wanted(double demand, double factor) {
        return (int) Math.min(Limits.POOL_SIZE, Math.ceil(demand * factor - TOLERANCE));
    }

    /**
     * The size a target's demand asks for: its current size while that lies between d and d × SLACK (rounded up,
     * within [floor, ceiling]), so a wobble writes nothing; otherwise {@link #sizeFor(double)}, within [floor, ceiling].
     */
    private static int goal(DemandTarget t, int floor, int ceiling) {
        double d = t.demand();
        int current = t.current();
        // below 4 the band has no room (a pool of 2 kept at demand 1 would never lend): the smoothing is the hysteresis
        int top = d < BAND_FROM ? sizeFor(d) : wanted(d, SLACK);
        if (current >= Math.max(floor, wanted(d, 1)) && current <= Math.max(floor, top) && current <= ceiling) {
            return current;
        }
        return Math.min(ceiling, Math.max(floor, sizeFor(d)));
    }

    /** {@code more}: what is left of the lent connections would pay its next step (so a hold, not the pool, stops it). */
    private static String explain(DemandTarget t, Function<DemandTarget, String> demandSaid, int floor, int ceiling,
            int size, int top, boolean allBusy, boolean more) {
        int nominal = t.nominal();
        if (t.demand() == null) {
            return "nominal " + nominal + ": no demand reported";
        }
        String demand = "demand " + demandSaid.apply(t) + " per pod";
        if (t.cost() == 0) {
            return "nominal " + nominal + ": no pods planned (" + demand + ")";
        }
        if (size < nominal) {
            return "lends " + (nominal - size) + " of nominal " + nominal + " (" + demand + "; floor " + floor + ")";
        }
        if (!t.mayRise() && more && size == top && size < Math.min(ceiling, wanted(t.demand(), 1))) {
            return "held at " + size + ": may not rise again yet (nominal " + nominal + ", " + demand + ")";
        }
        if (size > nominal) {
            return "borrows " + (size - nominal) + " above nominal " + nominal + " (" + demand + ", ceiling " + ceiling
                    + (size < top || size < Math.min(ceiling, wanted(t.demand(), 1)) && !more ? "; no more is lent"
                            : "")
                    + ")";
        }
        if (wanted(t.demand(), 1) < nominal) {
            return "nominal " + nominal + ": " + demand + " with headroom needs all of it";
        }
        if (ceiling == nominal && wanted(t.demand(), 1) > nominal) {
            return "nominal " + nominal + ": may not borrow (" + demand + ", ceiling " + ceiling + ")";
        }
        if (size == top) {
            return "nominal " + nominal + ": " + demand + " fits it";
        }
        if (allBusy) {
            return "nominal " + nominal + ": every target is busy (" + demand + ")";
        }
        return "nominal " + nominal + ": nothing lent to borrow (" + demand + ", ceiling " + ceiling + ")";
    }

    private static void requireUniqueIds(List<DemandTarget> targets) {
        var seen = new HashSet<String>(targets.size() * 2);
        for (DemandTarget t : targets) {
            if (!seen.add(t.id())) {
                throw new InvalidInputException("target " + t.id(), "appears a second time: each target may be "
                        + "solved once; remove the duplicate");
            }
        }
    }
}
