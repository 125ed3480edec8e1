package io.poolbudget.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * may lend or borrow at peak pods. The table and the JSON say the same {@link Range}.
 */
final class PlanDemand {
    private static final String ROW = "%-32s %7s %5s %7s %8s %10s%n";

    /** A target's range under allocation by demand: pool sizes, and the connections they are at peak pods. */
    record Range(int nominal, int floor, int ceiling, long lendable, long borrowable) {
        static Range of(TargetAllocation t, Lending lending) {
            int nominal = t.poolSize();
            int floor = DemandSolver.floor(nominal, t.peak().target().minPoolSize(), lending);
            int ceiling = DemandSolver.ceiling(nominal, t.peak().target().maxPoolSize(), lending);
            return new Range(nominal, floor, ceiling, t.peak().cost() * (nominal - floor),
                    t.peak().cost() * (ceiling - nominal));
        }
    }

    private PlanDemand() {}

    /** The policy's lending and borrowing, defaults applied; null with mode Weights (nothing moves by demand). */
    static Lending lending(AllocationSpec spec) {
        return AllocationMode.of(spec) == AllocationMode.Weights ? null
                : new Lending(spec.lendablePercentOrDefault(), spec.borrowingLimitPercentOrDefault());
    }

    /** The section, empty with mode Weights. */
    static String table(AllocationSpec spec, Allocation a) {
        Lending lending = lending(spec);
        if (lending == null) {
            return "";
        }
        AllocationMode mode = AllocationMode.of(spec);
        var out = new StringBuilder(String.format(Locale.ROOT, "%nAllocation by demand (mode %s%s; lendable %d%%, "
                + "borrowing limit %d%%, every %d s): each pool size moves between its floor and ceiling as demand "
                + "does, and the total stays within the nominal one%n", mode,
                mode == AllocationMode.Recommend
                        ? ": recommended in status, nothing written" : ", by live resize",
                lending.lendablePercent(), lending.borrowingLimitPercent(), spec.periodSecondsOrDefault()));
        out.append(String.format(Locale.ROOT, ROW, "TARGET", "NOMINAL", "FLOOR", "CEILING", "LENDABLE",
                "BORROWABLE"));
        for (TargetAllocation t : a.targets()) {
            Range r = Range.of(t, lending);
            out.append(String.format(Locale.ROOT, ROW, t.id(), r.nominal(), r.floor(), r.ceiling(), r.lendable(),
                    r.borrowable()));
        }
        return out.append("  LENDABLE and BORROWABLE are connections at peak pods; FLOOR is the worst case each "
                + "target is guaranteed\n").toString();
    }

    /** The policy's allocation settings, defaults applied, as JSON; nothing with mode Weights. */
    static void json(AllocationSpec spec, ObjectNode policy) {
        Lending lending = lending(spec);
        if (lending != null) {
            policy.putObject("allocation").put("mode", AllocationMode.of(spec).name())
                    .put("lendablePercent", lending.lendablePercent())
                    .put("borrowingLimitPercent", lending.borrowingLimitPercent())
                    .put("periodSeconds", spec.periodSecondsOrDefault());
        }
    }

    /** A target's range as JSON, as the table's row says it; nothing with mode Weights. */
    static void json(AllocationSpec spec, TargetAllocation t, ObjectNode target) {
        Lending lending = lending(spec);
        if (lending != null) {
            Range r = Range.of(t, lending);
            target.putObject("allocation").put("nominalPoolSize", r.nominal()).put("floorPoolSize", r.floor())
                    .put("ceilingPoolSize", r.ceiling()).put("lendableConnections", r.lendable())
                    .put("borrowableConnections", r.borrowable());
        }
    }
}
