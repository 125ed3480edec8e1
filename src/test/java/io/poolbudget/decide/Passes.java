package io.poolbudget.decide;

import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.planning.SharedBudgets;
import io.poolbudget.write.WorkloadWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** A pass decided, and its writes applied one by one through {@code writer}, as the realizer applies them. */
public final class Passes {
    private Passes() {}

    public static PassResult run(PoolPolicy policy, ClusterView view, Collection<PoolPolicy> neighbours,
            WorkloadWriter writer, Instant now, Duration window) {
        return run(policy, view, neighbours, null, writer, now, window);
    }

    public static PassResult run(PoolPolicy policy, ClusterView view, Collection<PoolPolicy> neighbours,
            SharedBudgets shared, WorkloadWriter writer, Instant now, Duration window) {
        Decision decision = PolicyPass.decide(policy, view, neighbours, shared, now, window);
        List<String> problems = new ArrayList<>();
        for (Decision.Write w : decision.writes()) {
            String problem = null;
            for (var object : w.objects()) {
                problem = writer.apply(w.fieldManager(), object);
                if (problem != null) {
                    break;
                }
            }
            problems.add(problem);
        }
        return decision.result(problems);
    }
}
