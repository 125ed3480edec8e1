package io.poolbudget.planning;

import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.sizing.Budget;

/**
 * What another party allows this cluster of a DatabaseBudget: the ledger the clusters sharing a database keep
 * (issue 57). {@code planWith} caps the budget (null: no cap of its own); {@code keep}: no more than the admitted
 * policies planned with last (the ledger has not answered yet, or cannot be used); {@code why} explains it.
 */
public record BudgetCap(Long planWith, boolean keep, String why) {
    /** The cap of a budget; null where nothing caps it. */
    @FunctionalInterface
    public interface Source {
        BudgetCap of(DatabaseBudget budget);

        Source NONE = budget -> null;
    }

    /** {@code whole} as this cap allows it, where the admitted policies planned with {@code planned} together. */
    Budget apply(Budget whole, long planned) {
        long allowed = planWith == null ? whole.connections() : Math.min(whole.connections(), planWith);
        if (keep) {
            allowed = Math.min(allowed, planned);
        }
        return new Budget(allowed, whole.term(), allowed + " = " + why + ", of " + whole.explanation());
    }

    /** What a policy planned with last: its status's budget, 0 before its first plan. */
    static long planned(PoolPolicy p) {
        return p.getStatus() == null || p.getStatus().getBudget() == null
                || p.getStatus().getBudget().getConnections() == null ? 0 : p.getStatus().getBudget().getConnections();
    }
}
