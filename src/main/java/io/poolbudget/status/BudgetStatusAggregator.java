package io.poolbudget.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.poolbudget.api.v1alpha1.BudgetStatus;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.DatabaseBudgetStatus;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.planning.InvalidPolicyException;
import io.poolbudget.planning.SharedBudgets;
import io.poolbudget.sizing.Budget;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A DatabaseBudget's status, built whole from the policies that reference it (their statuses as cached) and what
 * pods outside its admitted policies hold. Pure: the same inputs give the same status, so an unchanged budget is
 * never written again.
 */
public final class BudgetStatusAggregator {
    public static final String REASON_SHARED = "Shared";
    public static final String REASON_HELD_OUTSIDE = "HeldOutside";

    private BudgetStatusAggregator() {}

    public static DatabaseBudgetStatus status(SharedBudgets shared, DatabaseBudget budget, List<Condition> previous,
            Clock clock) {
        var status = new DatabaseBudgetStatus();
        long generation = budget.getMetadata().getGeneration() == null ? 0 : budget.getMetadata().getGeneration();
        status.setObservedGeneration(generation);
        Budget total;
        try {
            total = SharedBudgets.total(budget);
        } catch (InvalidPolicyException e) {
            status.setConditions(List.of(Conditions.carry(previous, Conditions.READY, Conditions.FALSE,
                    Conditions.REASON_INVALID_SPEC, e.getMessage(), generation, clock)));
            return status;
        }
        status.setBudget(BudgetStatus.of(total));
        policies(status, shared, budget);
        long outside = outside(status, shared, budget);
        String message = status.getPolicyCount() + " policies draw on " + total.connections()
                + " connections"
                + (outside == 0 ? "" : "; " + outside + " of them are held by pods outside its admitted "
                        + "policies (status.outside), so those policies split "
                        + Math.max(0, total.connections() - outside));
        status.setConditions(List.of(Conditions.carry(previous, Conditions.READY, Conditions.TRUE,
                outside == 0 ? REASON_SHARED : REASON_HELD_OUTSIDE, message, generation, clock)));
        return status;
    }

    /** Each referencing policy's share and use (admitted), or why it is refused; their totals. */
    private static void policies(DatabaseBudgetStatus status, SharedBudgets shared, DatabaseBudget budget) {
        List<DatabaseBudgetStatus.PolicyShare> rows = new ArrayList<>();
        long allocated = 0;
        long live = 0;
        boolean anyNumber = false; // a policy's pods may open any number: so may the sum
        for (SharedBudgets.Member m : shared.members(budget)) {
            var st = m.policy().getStatus();
            var row = row(m.policy());
            row.setShare(m.share().connections());
            row.setAllocated(st == null ? null : st.getAllocated());
            row.setLive(st == null ? null : st.getLiveConnections());
            row.setLiveUnbounded(st == null ? null : st.getLiveConnectionsUnbounded());
            anyNumber |= Boolean.TRUE.equals(row.getLiveUnbounded());
            allocated += row.getAllocated() == null ? 0 : row.getAllocated();
            live += row.getLive() == null ? 0 : row.getLive();
            rows.add(row);
        }
        status.setPolicyCount(rows.size());
        for (PoolPolicy p : shared.referencing(budget)) {
            String refusal = shared.refusal(budget, SharedBudgets.namespaceOf(p));
            if (refusal != null) {
                var row = row(p);
                row.setRefused("namespace " + SharedBudgets.namespaceOf(p) + " is not selected");
                rows.add(row);
            }
        }
        rows.sort(Comparator.comparing(DatabaseBudgetStatus.PolicyShare::getNamespace)
                .thenComparing(DatabaseBudgetStatus.PolicyShare::getName));
        status.setPolicies(rows);
        status.setAllocated(allocated);
        status.setLiveConnections(anyNumber ? null : live);
        status.setLiveConnectionsUnbounded(anyNumber ? Boolean.TRUE : null);
    }

    /** What pods outside the budget's admitted policies hold, row by row; the total. */
    private static long outside(DatabaseBudgetStatus status, SharedBudgets shared, DatabaseBudget budget) {
        long outside = 0;
        for (SharedBudgets.Outside o : shared.outside(budget)) {
            var row = new DatabaseBudgetStatus.HeldOutside();
            row.setNamespace(o.namespace());
            row.setPolicy(o.policy());
            row.setPods(o.pods());
            row.setTerminating(o.terminating());
            row.setConnections(o.connections());
            row.setReason(o.why());
            status.getOutside().add(row);
            outside += o.connections();
        }
        status.setHeldOutside(outside);
        return outside;
    }

    private static DatabaseBudgetStatus.PolicyShare row(PoolPolicy p) {
        var row = new DatabaseBudgetStatus.PolicyShare();
        row.setNamespace(SharedBudgets.namespaceOf(p));
        row.setName(p.getMetadata().getName());
        return row;
    }
}
