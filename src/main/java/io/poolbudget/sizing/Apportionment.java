package io.poolbudget.sizing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Integer pool sizes by a bounded divisor method (Sainte-Laguë / Webster).
 *
 * <p>Every target starts at its minimum. Raising target i from size s to s+1 costs {@code cost[i]}
 * connections (its peak pods × pools per pod) and has priority {@code weight[i] / (s + ½)}. All
 * such steps, over all targets, form one fixed order (highest priority first, ties by id); the
 * result is the longest prefix of that order that fits the spare budget. Because the order does
 * not depend on the budget or the costs, more budget only lengthens the prefix (no size ever
 * drops: no Alabama paradox, which largest-remainder rounding suffers) and a higher cost only
 * shortens it. Sizes end up proportional to weight within rounding: for targets i, j not held at
 * a bound, {@code (2·s_i − 1) · w_j ≤ (2·s_j + 1) · w_i}. Budget the next step cannot use is
 * reported, not handed out out of order.
 *
 * <p>Finding the prefix: the steps above a threshold λ are, per target, the s with
 * {@code s < λ·w − ½}, so their cost is a nondecreasing function of λ computed in O(n). Bisection
 * finds the λ where the cost crosses the budget; the few steps near that λ are then ordered
 * exactly (integer cross-multiplication) and taken one by one until one does not fit.
 */
final class Apportionment {
    long[] cost() {
        return cost;
    }
    int[] weight() {
        return weight;
    }
    int[] min() {
        return min;
    }
    int[] max() {
        return max;
    }
    String[] id() {
        return id;
    }

    /** Relative margin around the bisected threshold; far above double rounding error. */
    private static final double MARGIN = 1e-9;
    /** About how many steps are left between the bisection's bounds to be ordered exactly. */
    private static final double BOUNDARY = 4096;

    /** Sizes, and the step that did not fit (blockedTarget −1: none, every target reached its max). */
    record Result(int[] sizes, int blockedTarget, int blockedFrom, double threshold) {}

    private final long[] cost;
    private final int[] weight;
    private final int[] min;
    private final int[] max; // Integer.MAX_VALUE: unbounded
    private final String[] id;

    Apportionment(long[] cost, int[] weight, int[] min, int[] max, String[] id) {
        this.cost = cost;
        this.weight = weight;
        this.min = min;
        this.max = max;
        this.id = id;
    }

    /**
     * Sizes for a spare budget (budget minus every target's minimum). A target may cost 0 (no pods
     * planned): its steps are free, so it takes every step before the first that does not fit; it
     * must then have a finite max.
     */
    Result apportion(long spare) {
        int[] sizes = min.clone();
        if (cost.length == 0) {
            return new Result(sizes, -1, 0, 1);
        }
        long[] reach = reach();
        if (reach[0] <= spare) {
            return new Result(max.clone(), -1, 0, Double.POSITIVE_INFINITY);
        }
        double[] bracket = threshold(spare, reach[1]);
        return fill(spare, bracket[0], bracket[1], sizes);
    }

    /** {cost of every target at its max (Long.MAX_VALUE: some has none), the largest min or max}. */
    private long[] reach() {
        long toMax = 0;
        long top = 0;
        for (int i = 0; i < cost.length; i++) {
            top = Math.max(top, min[i]);
            if (max[i] == Integer.MAX_VALUE) {
                if (cost[i] == 0) {
                    throw new IllegalArgumentException(id[i] + " costs nothing and has no max");
                }
                toMax = Long.MAX_VALUE;
            } else {
                top = Math.max(top, max[i]);
                if (toMax != Long.MAX_VALUE) {
                    toMax = Limits.saturatedAdd(toMax, Limits.saturatedMultiply(cost[i], max[i] - min[i]));
                }
            }
        }
        return new long[]{toMax, top};
    }

    /**
     * {lo, hi} around the threshold: bracketed around the unclamped estimate, then bisected until about BOUNDARY steps
     * lie between them; those are then ordered exactly ({@link #fill}). At {@code limit} every bounded target is at
     * its max and every unbounded one has taken more than {@code spare} steps, so the cost exceeds it.
     */
    private double[] threshold(long spare, long top) {
        double limit = (double) top + spare + 2;
        double hi = Math.min(estimate(spare), limit);
        while (costAt(hi, spare) <= spare) {
            hi = Math.min(hi * 2, limit);
        }
        double lo = hi / 2;
        for (int i = 0; i < 64 && costAt(lo, spare) > spare; i++) {
            hi = lo;
            lo = lo / 2;
        }
        if (costAt(lo, spare) > spare) {
            lo = 0;
        }
        double stepsPerUnit = 0;
        for (int w : weight) {
            stepsPerUnit += w;
        }
        for (int iteration = 0; iteration < 200 && (hi - lo) * stepsPerUnit > BOUNDARY
                && hi - lo > hi * 1e-13; iteration++) {
            double mid = (lo + hi) / 2;
            if (costAt(mid, spare) <= spare) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return new double[]{lo, hi};
    }

    /** Every step below {@code lo}, then the steps between {@code lo} and {@code hi} in fair order while they fit. */
    private Result fill(long spare, double lo, double hi, int[] sizes) {
        double below = lo * (1 - MARGIN);
        double above = hi * (1 + MARGIN);
        long used = 0;
        List<long[]> boundary = new ArrayList<>(); // {target, size the step starts from}
        for (int i = 0; i < cost.length; i++) {
            long taken = steps(below, i);
            sizes[i] = (int) (min[i] + taken);
            used += cost[i] * taken;
            for (long s = sizes[i], end = min[i] + steps(above, i); s < end; s++) {
                boundary.add(new long[]{i, s});
            }
        }
        boundary.sort(order());
        for (long[] step : boundary) {
            int i = (int) step[0];
            if (used + cost[i] > spare) {
                return new Result(sizes, i, (int) step[1], Math.max(lo, Double.MIN_NORMAL));
            }
            used += cost[i];
            sizes[i]++;
        }
        throw new IllegalStateException("apportionment ended without reaching the budget; please report this input");
    }

    /**
     * The continuous fair share per unit of weight: the λ at which real-valued sizes
     * clamp(λ·w, min, max) would spend exactly the spare budget. Explanations quote it; the
     * integer sizes are its rounding in fair order. {@code near} seeds the search (the discrete
     * threshold); 1e-4 relative precision is what explanations print.
     */
    double continuousShare(long spare, double near) {
        double hi = Double.isFinite(near) ? near : Math.max(estimate(spare), Double.MIN_NORMAL);
        while (spentAt(hi) < spare) {
            if (hi > 1e18) {
                return Double.POSITIVE_INFINITY;
            }
            hi *= 2;
        }
        double lo = hi / 2;
        for (int i = 0; i < 64 && spentAt(lo) >= spare; i++) {
            hi = lo;
            lo /= 2;
        }
        for (int iteration = 0; iteration < 100 && hi - lo > hi * 1e-4; iteration++) {
            double mid = (lo + hi) / 2;
            if (spentAt(mid) < spare) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    /** The threshold if nothing were clamped: spare + Σ cost·min = λ · Σ cost·w. */
    private double estimate(long spare) {
        double costTimesMin = 0;
        double costTimesWeight = 0;
        for (int i = 0; i < cost.length; i++) {
            costTimesMin += (double) cost[i] * min[i];
            costTimesWeight += (double) cost[i] * weight[i];
        }
        return costTimesWeight == 0 ? 1 : Math.max((spare + costTimesMin) / costTimesWeight, 1e-9);
    }

    private double spentAt(double lambda) {
        double total = 0;
        for (int i = 0; i < cost.length; i++) {
            double size = Math.min(Math.max(lambda * weight[i], min[i]), max[i]);
            total += cost[i] * (size - min[i]);
        }
        return total;
    }

    /** Steps target i takes below threshold λ: the s in [min, max) with s < λ·w − ½. */
    private long steps(double lambda, int i) {
        double x = lambda * weight[i] - 0.5;
        if (x <= min[i]) {
            return 0;
        }
        long ceil = (long) Math.ceil(x);
        return Math.min(ceil - min[i], (long) max[i] - min[i]);
    }

    /** Cost of all steps below λ, stopping early once it exceeds {@code limit}. */
    private long costAt(double lambda, long limit) {
        long total = 0;
        for (int i = 0; i < cost.length; i++) {
            total = Limits.saturatedAdd(total, Limits.saturatedMultiply(cost[i], steps(lambda, i)));
            if (total > limit) {
                return total;
            }
        }
        return total;
    }

    /** Higher priority w/(s+½) first, compared exactly; equal priorities by id. */
    private Comparator<long[]> order() {
        return (a, b) -> {
            int i = (int) a[0];
            int j = (int) b[0];
            // w_i/(2s_a+1) > w_j/(2s_b+1)  <=>  w_i·(2s_b+1) > w_j·(2s_a+1); inputs are bounded so this fits a long.
            int byPriority = Long.compare(weight[j] * (2 * a[1] + 1), weight[i] * (2 * b[1] + 1));
            return byPriority != 0 ? byPriority : id[i].compareTo(id[j]);
        };
    }
}
