package io.poolbudget.decide;

import io.poolbudget.planning.InvalidPolicyException;
import io.poolbudget.planning.PolicyPlanner.PolicyPlan;
import java.time.Duration;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * What a pass made of a policy, for its status: the plan, every target's outcome, and when to look again. {@code
 * invalid} is set, and the rest empty, when the spec cannot be planned. {@code demand}: with spec.allocation Demand or
 * Recommend, each target's demand row by its id (kind/name); empty otherwise.
 */
public record PassResult(PolicyPlan plan, InvalidPolicyException invalid, List<TargetOutcome> targets,
        Duration requeue, java.util.Map<String, DemandStep.Row> demand) {

    public PassResult(PolicyPlan plan, InvalidPolicyException invalid, List<TargetOutcome> targets, Duration requeue) {
        this(plan, invalid, targets, requeue, java.util.Map.of());
    }

    public static PassResult invalid(InvalidPolicyException e) {
        return new PassResult(null, e, List.of(), null);
    }

    /** Connections the targets' pods hold now, by their own specs, terminating pods included. */
    public long liveConnections() {
        return sum(TargetOutcome.Held::connections);
    }

    /** Of {@link #liveConnections}, those counted at the app's default: what pods not yet sized may open. */
    public long atDefaultConnections() {
        return sum(TargetOutcome.Held::atDefault);
    }

    /** Connections pods the operator did not size may still hold while they shut down (not in the others). */
    public long departingConnections() {
        return sum(TargetOutcome.Held::departing);
    }

    /**
     * Whether pods counted in {@link #liveConnections} ({@code departing}: in {@link #departingConnections}) run an app
     * with no pool limit without its variable: then what they may open is any number, not the sum.
     */
    public boolean anyNumber(boolean departing) {
        return targets.stream().anyMatch(t -> t.held() != null
                && (t.held().anyNumber() || departing && t.held().departingAnyNumber()));
    }

    /**
     * Of {@link #atDefaultConnections}, what pods not yet sized may open beyond what the plan gives them (their count ×
     * the target's pool size × pools per pod): the part of the count that is theirs alone, not a routine rollout's.
     */
    public long unsizedExcess() {
        return targets.stream().filter(t -> t.held() != null && t.allocation() != null).mapToLong(t -> Math.max(0,
                t.held().atDefault() - (long) t.held().atDefaultPods() * t.allocation().poolSize()
                        * t.allocation().poolsPerPod()))
                .sum();
    }

    private long sum(ToLongFunction<TargetOutcome.Held> part) {
        return targets.stream().filter(t -> t.held() != null).mapToLong(t -> part.applyAsLong(t.held())).sum();
    }
}
