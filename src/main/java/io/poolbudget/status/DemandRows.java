package io.poolbudget.status;

import io.poolbudget.api.v1alpha1.TargetStatus;
import io.poolbudget.decide.DemandStep;
import io.poolbudget.decide.TargetOutcome;
import io.poolbudget.sizing.TargetAllocation;

/**
 * A target row's fields of spec.allocation Demand or Recommend: its demand per pod (rounded up, so a steady load
 * writes nothing), where it comes from, its nominal size, the size Demand would give it (Recommend), and what the
 * allocation did. Where the size from demand is not the nominal one, the row's explanation says so after the plan's.
 */
final class DemandRows {
    private DemandRows() {}

    static TargetStatus set(TargetStatus t, TargetOutcome o, DemandStep.Row row, boolean full) {
        if (row == null) {
            return t;
        }
        t.setNominalPoolSize(row.nominal());
        t.setRecommendedPoolSize(row.recommended());
        if (full) {
            t.setDemand(row.demand());
            t.setDemandSource(row.source());
            t.setAllocation(row.allocation());
            TargetAllocation a = o.allocation();
            if (t.getExplanation() != null && a != null && a.poolSize() != row.nominal()) {
                // the plan's words are of the size by weights: said at the nominal size, then what demand made of it
                var nominal = new TargetAllocation(a.peak(), row.nominal(), a.fairShare(), a.oversubscribed(),
                        a.fit(), a.strategyCost());
                t.setExplanation(t.getExplanation().replace(a.explanation(), nominal.explanation()
                        + "; by demand: pool size " + a.poolSize() + " (" + row.allocation() + "), " + a.poolSize()
                        + " × " + a.peak().total() + " peak pods × " + a.poolsPerPod() + " pools per pod = "
                        + a.connections() + " connections"));
            }
        }
        return t;
    }
}
