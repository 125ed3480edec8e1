package io.poolbudget.reconciler;

import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.DatabaseBudgetStatus;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.planning.InvalidPolicyException;
import io.poolbudget.planning.SharedBudgets;
import io.poolbudget.sizing.Budget;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A DatabaseBudget's status, built whole from the policies that reference it. Pure. */
final class BudgetStatusAggregator {
    private BudgetStatusAggregator() {}

    /**
     * The DatabaseBudget's status as the policies that reference it report: {@code self} with the status this pass
     * computed (its cached one is the last pass's), the others as cached. Null when the budget is unknown.
     */
    static DatabaseBudgetStatus status(SharedBudgets shared, PoolPolicy self, PoolPolicyStatus selfStatus) {
        DatabaseBudget budget = shared.budgetOf(self);
        if (budget == null) {
            return null;
        }
        var status = new DatabaseBudgetStatus();
        Budget total;
        try {
            total = SharedBudgets.total(budget);
        } catch (InvalidPolicyException e) {
            return null; // every policy referencing it reports the problem
        }
        status.setBudget(StatusAggregator.budgetStatus(total));
        List<DatabaseBudgetStatus.PolicyShare> rows = new ArrayList<>();
        long allocated = 0;
        long live = 0;
        for (SharedBudgets.Member m : shared.members(budget)) {
            var st = SharedBudgets.same(m.policy(), self) ? selfStatus : m.policy().getStatus();
            var row = row(m.policy());
            row.setShare(m.share().connections());
            row.setAllocated(st == null ? null : st.getAllocated());
            row.setLive(st == null ? null : st.getLiveConnections());
            allocated += row.getAllocated() == null ? 0 : row.getAllocated();
            live += row.getLive() == null ? 0 : row.getLive();
            rows.add(row);
        }
        status.setPolicyCount(rows.size());
        for (PoolPolicy p : shared.referencing(budget)) {
            if (shared.refusal(budget, SharedBudgets.namespaceOf(p)) != null) {
                var row = row(p);
                row.setRefused("namespace " + SharedBudgets.namespaceOf(p) + " is not selected");
                rows.add(row);
            }
        }
        rows.sort(Comparator.comparing(DatabaseBudgetStatus.PolicyShare::getNamespace)
                .thenComparing(DatabaseBudgetStatus.PolicyShare::getName));
        status.setPolicies(rows);
        status.setAllocated(allocated);
        status.setLiveConnections(live);
        return status;
    }

    private static DatabaseBudgetStatus.PolicyShare row(PoolPolicy p) {
        var row = new DatabaseBudgetStatus.PolicyShare();
        row.setNamespace(SharedBudgets.namespaceOf(p));
        row.setName(p.getMetadata().getName());
        return row;
    }
}
