package io.poolbudget.status;

import io.poolbudget.api.v1alpha1.TargetStatus;
import io.poolbudget.decide.DemandStep;
import io.poolbudget.sizing.TargetAllocation;

/**
 * A target row's fields of spec.allocation Demand or Recommend: its demand per pod (rounded up, so a steady load
 * writes nothing), where it comes from, its nominal size, the size Demand would give it (Recommend), and what the
 * allocation did; and the plan's words for a size that demand moved off the nominal one.
 */
final class DemandRows {
    private DemandRows() {}

    static TargetStatus set(TargetStatus t, DemandStep.Row row, boolean full) {
        if (row == null) {
            return t;
        }
        t.setNominalPoolSize(row.nominal());
        t.setRecommendedPoolSize(row.recommended());
        if (full) {
            t.setDemand(row.demand());
            t.setDemandSource(row.source());
            t.setAllocation(row.allocation());
        }
        return t;
    }

    /**
     * The plan's words for a target's size: its own where the size is the nominal one (mode Weights, or demand left it
     * there), else said at the nominal size, then what demand made of it (the plan's words are of the size by weights).
     */
    static String sizeWords(TargetAllocation a, DemandStep.Row row) {
        if (row == null || a.poolSize() == row.nominal()) {
            return a.explanation();
        }
        var nominal = new TargetAllocation(a.peak(), row.nominal(), a.fairShare(), a.oversubscribed(), a.fit(),
                a.strategyCost());
        return nominal.explanation() + "; by demand: pool size " + a.poolSize() + " (" + row.allocation() + "), "
                + a.poolSize() + " × " + a.peak().total() + " peak pods × " + a.poolsPerPod() + " pools per pod = "
                + a.connections() + " connections";
    }
}
