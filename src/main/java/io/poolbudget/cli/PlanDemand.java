package io.poolbudget.cli;

import io.poolbudget.api.v1alpha1.AllocationMode;
import io.poolbudget.api.v1alpha1.AllocationSpec;
import io.poolbudget.sizing.Allocation;
import io.poolbudget.sizing.DemandSolver;
import io.poolbudget.sizing.Lending;
import io.poolbudget.sizing.TargetAllocation;
import java.util.Locale;

/**
 * plan's part for spec.allocation Demand or Recommend: each target's nominal size (by weights), its floor (the least
 * it is ever given, whatever the others' demand: the worst case it is guaranteed), its ceiling, and the connections it
 * may lend or borrow at peak pods.
 */
final class PlanDemand {
    private static final String ROW = "%-32s %7s %5s %7s %8s %10s%n";

    private PlanDemand() {}

    /** The section, empty with mode Weights. */
    static String table(AllocationSpec spec, Allocation a) {
        AllocationMode mode = AllocationMode.of(spec);
        if (mode == AllocationMode.Weights) {
            return "";
        }
        var lending = new Lending(spec.lendablePercentOrDefault(), spec.borrowingLimitPercentOrDefault());
        var out = new StringBuilder(String.format(Locale.ROOT, "%nAllocation by demand (mode %s%s; lendable %d%%, "
                + "borrowing limit %d%%, every %d s): each pool size moves between its floor and ceiling as demand "
                + "does, and the total stays within the nominal one%n", mode,
                mode == AllocationMode.Recommend
                        ? ": recommended in status, nothing written" : ", by live resize",
                lending.lendablePercent(), lending.borrowingLimitPercent(), spec.periodSecondsOrDefault()));
        out.append(String.format(Locale.ROOT, ROW, "TARGET", "NOMINAL", "FLOOR", "CEILING", "LENDABLE",
                "BORROWABLE"));
        for (TargetAllocation t : a.targets()) {
            int nominal = t.poolSize();
            int floor = DemandSolver.floor(nominal, t.peak().target().minPoolSize(), lending);
            int ceiling = DemandSolver.ceiling(nominal, t.peak().target().maxPoolSize(), lending);
            out.append(String.format(Locale.ROOT, ROW, t.id(), nominal, floor, ceiling,
                    t.peak().cost() * (nominal - floor), t.peak().cost() * (ceiling - nominal)));
        }
        return out.append("  LENDABLE and BORROWABLE are connections at peak pods; FLOOR is the worst case each "
                + "target is guaranteed\n").toString();
    }
}
