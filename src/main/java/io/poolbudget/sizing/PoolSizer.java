package io.poolbudget.sizing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;

/**
 * The allocation engine: a database's budget, each target's peak pods, and static per-pod pool
 * sizes such that Σ peak pods × pools per pod × size ≤ budget whenever the minimums fit.
 * Pure and deterministic: the same input in any order gives the same sizes.
 */
public final class PoolSizer {
    private PoolSizer() {}

    public static Allocation allocate(DatabaseInput database, List<TargetInput> targets) {
        return allocate(Budget.of(database), targets);
    }

    /** The same for a budget already known: a policy's share of a budget several namespaces draw on. */
    public static Allocation allocate(Budget budget, List<TargetInput> targets) {
        requireUniqueIds(targets);
        Allocation a = allocation(budget, targets, true);
        if (a.verdict() != Allocation.Verdict.FITS) {
            return a;
        }
        String[] costs = StrategyCost.of(budget, targets, a.targets());
        List<TargetAllocation> out = new ArrayList<>(a.targets().size());
        for (int i = 0; i < costs.length; i++) {
            out.add(a.targets().get(i).withStrategyCost(costs[i]));
        }
        return new Allocation(a.budget(), List.copyOf(out), a.verdict(), a.unallocatedReason());
    }

    /** The sizes alone, without fits or what-ifs: for {@link StrategyCost}'s own. */
    static List<TargetAllocation> allocateOnly(Budget budget, List<TargetInput> targets) {
        return allocation(budget, targets, false).targets();
    }

    private static Allocation allocation(Budget budget, List<TargetInput> targets, boolean fits) {
        int n = targets.size();
        PeakPods[] peaks = new PeakPods[n];
        long required = 0;
        for (int i = 0; i < n; i++) {
            TargetInput t = targets.get(i);
            peaks[i] = PeakPods.of(t);
            required = Limits.saturatedAdd(required, Limits.saturatedMultiply(peaks[i].cost(), t.minPoolSize()));
        }
        if (required > budget.connections()) {
            return oversubscribed(budget, targets, peaks, required, fits);
        }

        var apportionment = apportionment(targets, peaks, budget.connections());
        long[] cost = apportionment.cost();
        String[] id = apportionment.id();
        long spare = budget.connections() - required;
        var result = apportionment.apportion(spare);
        boolean anyPods = Arrays.stream(cost).anyMatch(c -> c > 0);
        double share = anyPods ? apportionment.continuousShare(spare, result.threshold()) : Double.POSITIVE_INFINITY;
        int[] sizes = result.sizes();
        List<TargetAllocation> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new TargetAllocation(peaks[i], sizes[i], share, null,
                    fits ? fit(peaks[i], budget, required) : null, null));
        }
        String unallocatedReason = result.blockedTarget() < 0
                ? (anyPods ? "every target is at its maxPoolSize" : "no target has pods planned")
                : "the next step in fair order, " + id[result.blockedTarget()] + " " + result.blockedFrom() + " → "
                        + (result.blockedFrom() + 1) + ", needs " + cost[result.blockedTarget()] + " connections";
        return new Allocation(budget, List.copyOf(out), Allocation.Verdict.FITS, unallocatedReason);
    }

    /**
     * The engine's view of the targets. A target with no planned pods costs nothing: it takes every
     * step before the one that does not fit (its size as its cost shrinks to zero), capped at the
     * whole budget. That keeps sizes monotone when it scales up from zero.
     */
    static Apportionment apportionment(List<TargetInput> targets, PeakPods[] peaks, long budget) {
        int n = targets.size();
        long[] cost = new long[n];
        int[] weight = new int[n];
        int[] min = new int[n];
        int[] max = new int[n];
        String[] id = new String[n];
        for (int i = 0; i < n; i++) {
            TargetInput t = targets.get(i);
            cost[i] = peaks[i].cost();
            weight[i] = t.weight();
            min[i] = t.minPoolSize();
            max[i] = t.maxPoolSize() == null ? Integer.MAX_VALUE : t.maxPoolSize();
            if (cost[i] == 0) {
                max[i] = (int) Math.min(max[i], Math.max(min[i], Math.min(budget, Limits.POOL_SIZE)));
            }
            id[i] = t.id();
        }
        return new Apportionment(cost, weight, min, max, id);
    }

    private static Allocation oversubscribed(Budget budget, List<TargetInput> targets, PeakPods[] peaks,
            long required, boolean fits) {
        // a share of a DatabaseBudget says whose share it is (and a share of 0 has no ratio to print)
        String of = budget.term() == Budget.Term.SHARE ? budget.connections() + " (" + budget.explanation() + ")"
                : Long.toString(budget.connections());
        String why = String.format(Locale.ROOT, "the budget of %s is below the %s connections every target's "
                + "minPoolSize needs%s: minPoolSize applies%s", of,
                required == Long.MAX_VALUE ? "more than 9.2×10¹⁸" : Long.toString(required),
                budget.connections() == 0 ? ""
                        : String.format(Locale.ROOT, " (%.2f×)", (double) required / budget.connections()),
                largest(targets, peaks));
        List<TargetAllocation> out = new ArrayList<>(targets.size());
        for (int i = 0; i < targets.size(); i++) {
            TargetInput t = targets.get(i);
            out.add(new TargetAllocation(peaks[i], t.minPoolSize(), Double.NaN, why,
                    fits ? fit(peaks[i], budget, required) : null, null));
        }
        return new Allocation(budget, List.copyOf(out), Allocation.Verdict.OVERSUBSCRIBED, why);
    }

    /** How far a target may grow: {@code required} is what every target needs at its minPoolSize. */
    private static Fit fit(PeakPods peak, Budget budget, long required) {
        long own = Limits.saturatedMultiply(peak.cost(), peak.target().minPoolSize());
        long others = required == Long.MAX_VALUE ? Long.MAX_VALUE : required - own;
        return Fit.of(peak, budget.connections(), others);
    }

    /** The target that needs the most at its minPoolSize (ties: the first id), and why: what to change first. */
    private static String largest(List<TargetInput> targets, PeakPods[] peaks) {
        if (targets.isEmpty()) {
            return "";
        }
        int top = 0;
        for (int i = 1; i < targets.size(); i++) {
            long need = Limits.saturatedMultiply(peaks[i].cost(), targets.get(i).minPoolSize());
            long most = Limits.saturatedMultiply(peaks[top].cost(), targets.get(top).minPoolSize());
            // a tie goes to the first id, as everywhere in sizing: the order of the targets changes nothing
            if (need > most || need == most && targets.get(i).id().compareTo(targets.get(top).id()) < 0) {
                top = i;
            }
        }
        TargetInput t = targets.get(top);
        return "; the most is " + t.id() + ": " + peaks[top].explanation() + ", at minPoolSize " + t.minPoolSize();
    }

    private static void requireUniqueIds(List<TargetInput> targets) {
        var seen = new HashSet<String>(targets.size() * 2);
        for (TargetInput t : targets) {
            if (!seen.add(t.id())) {
                throw new InvalidInputException(t.field(), "names " + t.id() + " a second time: each workload may "
                        + "appear once in a policy; remove the duplicate target");
            }
        }
    }
}
