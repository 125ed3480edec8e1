package io.poolbudget.ledger;

import io.fabric8.kubernetes.api.model.Condition;
import io.poolbudget.api.v1alpha1.DatabaseBudgetStatus;
import io.poolbudget.ledger.LedgerSync.State;
import io.poolbudget.sizing.ClusterLedger.Failed;
import io.poolbudget.sizing.ClusterLedger.Refused;
import io.poolbudget.sizing.ClusterLedger.Settled;
import io.poolbudget.status.Conditions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/** A DatabaseBudget's status of its ledger: the claims, and the condition LedgerSynced that says how the last tick went. */
public final class LedgerConditions {
    public static final String LEDGER_SYNCED = "LedgerSynced";

    private LedgerConditions() {}

    public static void add(DatabaseBudgetStatus status, State state, List<Condition> previous, Clock clock) {
        status.setLedger(LedgerHolds.status(state));
        long generation = status.getObservedGeneration() == null ? 0 : status.getObservedGeneration();
        Condition condition;
        if (state == null) {
            condition = Conditions.carry(previous, LEDGER_SYNCED, Conditions.UNKNOWN, "NotTickedYet", "the operator "
                    + "has not reached the ledger yet: the policies keep what they planned with", generation, clock);
        } else if (state.latest() instanceof Settled s) {
            condition = Conditions.carry(previous, LEDGER_SYNCED, Conditions.TRUE, s.waits().isEmpty() ? "Settled"
                    : "Waiting",
                    "this cluster plans with " + s.planWith() + " of a budget of " + s.budget()
                            + " (target " + s.target() + ", granted " + s.granted() + ")"
                            + (s.waits().isEmpty() ? "" : "; " + String.join("; ", s.waits())),
                    generation, clock);
        } else {
            String reason = state.latest() instanceof Failed f ? f.reason() : "Refused";
            String message = state.latest() instanceof Failed f ? f.message() : ((Refused) state.latest()).reason();
            condition = Conditions.carry(previous, LEDGER_SYNCED, Conditions.FALSE, reason, message + "; the "
                    + "policies keep what they planned with and raise nothing until the ledger answers", generation,
                    clock);
        }
        List<Condition> conditions = new ArrayList<>(status.getConditions());
        conditions.add(condition);
        status.setConditions(conditions);
    }
}
