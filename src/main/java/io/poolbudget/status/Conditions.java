package io.poolbudget.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/**
 * Condition types and reasons, declared once. {@link #carry} keeps lastTransitionTime unless the
 * status flips, so an unchanged pass yields an equal status and the reconciler skips the patch.
 */
public final class Conditions {
    public static final String READY = "Ready";
    public static final String OVERSUBSCRIBED = "Oversubscribed";
    public static final String ROLLOUT_IN_PROGRESS = "RolloutInProgress";
    public static final String CONFLICT = "Conflict";
    /** spec.database.observe: the database's own count is above the budget, or its capacity below it. */
    public static final String OBSERVED_OVER_BUDGET = "ObservedOverBudget";
    /** spec.database.observe: the database cannot be read (reason says why). */
    public static final String OBSERVATION_FAILING = "ObservationFailing";

    public static final String REASON_RECONCILED = "Reconciled";
    public static final String REASON_DRY_RUN = "DryRun";
    public static final String REASON_INVALID_SPEC = "InvalidSpec";
    /** A pass failed unexpectedly: it is retried, and the message says what failed. */
    public static final String REASON_RECONCILE_ERROR = "ReconcileError";
    public static final String REASON_OVERSUBSCRIBED = "Oversubscribed";
    public static final String REASON_WITHIN_BUDGET = "WithinBudget";
    public static final String REASON_CONFLICT = "Conflict";
    public static final String REASON_NO_CONFLICT = "NoConflict";
    public static final String REASON_TARGET_PROBLEM = "TargetProblem";
    public static final String REASON_ROLLING = "Rolling";
    public static final String REASON_PENDING = "Pending";
    public static final String REASON_SETTLED = "Settled";
    /** The plan fits, but pods that exist now hold more than the budget (they are being shrunk). */
    public static final String REASON_LIVE_OVER_BUDGET = "LiveOverBudget";

    public static final String REASON_CONNECTIONS_OVER_BUDGET = "ConnectionsOverBudget";
    public static final String REASON_CAPACITY_BELOW_BUDGET = "CapacityBelowBudget";
    public static final String REASON_OBSERVING = "Observing";
    public static final String REASON_NOT_READ_YET = "NotObserved";

    public static final String TRUE = "True";
    public static final String UNKNOWN = "Unknown";
    public static final String FALSE = "False";

    private Conditions() {}

    /** A condition with a transition time carried over from {@code previous} when its status is unchanged. */
    public static Condition carry(List<Condition> previous, String type, String status, String reason,
            String message, long generation, Clock clock) {
        String since = previous == null ? null : previous.stream()
                .filter(c -> type.equals(c.getType()) && status.equals(c.getStatus()))
                .map(Condition::getLastTransitionTime).filter(Objects::nonNull).findFirst().orElse(null);
        if (since == null) {
            since = Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
        }
        return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
                .withObservedGeneration(generation).withLastTransitionTime(since).build();
    }
}
