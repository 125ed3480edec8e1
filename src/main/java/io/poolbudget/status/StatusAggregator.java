package io.poolbudget.status;

import static io.poolbudget.status.Conditions.FALSE;
import static io.poolbudget.status.Conditions.TRUE;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Condition;
import io.poolbudget.api.v1alpha1.BudgetStatus;
import io.poolbudget.api.v1alpha1.ObserveSpec;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.decide.PassResult;
import io.poolbudget.decide.TargetOutcome.State;
import io.poolbudget.sizing.Allocation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Builds a PoolPolicy's whole status, from a pass's result or from a pass that failed: the one builder of it. Pure:
 * what it needs of the past comes in (the conditions last reported, since when the pods have declared more than the
 * budget) and goes out ({@link Built}); what the database reported is an input ({@link Observed}), not an edit after.
 */
public final class StatusAggregator {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Clock clock;
    private final Duration liveGrace;

    /** Reports the pods' declared total above the budget at once (tests, and pods that hold exactly what they declare). */
    public StatusAggregator(Clock clock) {
        this(clock, Duration.ZERO);
    }

    /**
     * {@code liveGrace}: how long the pods' declared total must stay above the budget before it is reported. A pod
     * that has just started may not have opened its pool yet, and one that is shutting down may have closed it while
     * the pod still exists: mid-rollout the declared total runs ahead of the database's count for a few seconds. An
     * over-budget count that includes pods the operator has not sized yet is reported at once.
     */
    public StatusAggregator(Clock clock, Duration liveGrace) {
        this.clock = clock;
        this.liveGrace = liveGrace;
    }

    /** What the database reported (spec.database.observe), with the targets' pod addresses to attribute it by. */
    public record Observed(ObserveSpec spec, Observation observation, Map<String, Set<String>> podIps, int instances) {}

    /** A status, and since when its pods have declared more than the budget (null: they do not). */
    public record Built(PoolPolicyStatus status, Instant overSince) {}

    /** The policy's status from a pass, with the status of what the conditions last reported said. */
    public PoolPolicyStatus status(PoolPolicy policy, PassResult result) {
        return build(policy, result, policy.getStatus() == null ? null : policy.getStatus().getConditions(), null, null)
                .status();
    }

    /** As {@link #build}, without an over-budget moment in progress nor an observation. */
    public PoolPolicyStatus status(PoolPolicy policy, PassResult result, List<Condition> previous) {
        return build(policy, result, previous, null, null).status();
    }

    /**
     * {@code previous}: the conditions last reported for the policy (a condition carries its transition time, and an
     * over-budget moment reported lasts); {@code overSince}: since when its pods have declared more than the budget, as
     * the last build said; {@code observed}: null without spec.database.observe.
     */
    public Built build(PoolPolicy policy, PassResult result, List<Condition> previous, Instant overSince,
            Observed observed) {
        long generation = generation(policy);
        var status = new PoolPolicyStatus();
        status.setObservedGeneration(generation);
        if (result.invalid() != null) {
            status.setConditions(new ArrayList<>(List.of(Conditions.carry(previous, Conditions.READY, FALSE,
                    Conditions.REASON_INVALID_SPEC, result.invalid().getMessage(), generation, clock))));
            return new Built(status, null);
        }
        Allocation a = result.plan().allocation();
        boolean wasLiveOver = previous != null && previous.stream().anyMatch(c -> Conditions.OVERSUBSCRIBED
                .equals(c.getType()) && Conditions.REASON_LIVE_OVER_BUDGET.equals(c.getReason()));
        // Pods the operator did not size that left their workload's count may hold their pools until they exit (where
        // the API server does not count terminating pods itself): they do not start an over-budget moment, but one
        // that is reported ends only once they can no longer hold any, so that its all-clear is true.
        long departing = wasLiveOver ? result.departingConnections() : 0;
        var facts = new Facts(result, a, result.liveConnections() + departing, result.atDefaultConnections(), departing,
                wasLiveOver, result.anyNumber(wasLiveOver));
        status.setBudget(BudgetStatus.of(a.budget()));
        status.setAllocated(a.allocated());
        status.setUnallocated(a.unallocated());
        status.setUnallocatedReason(a.verdict() == Allocation.Verdict.FITS ? a.unallocatedReason() : null);
        // a pod without a pool limit may open any number: no sum is said where one is counted (issue 53)
        status.setLiveConnections(facts.anyNumber ? null : facts.live);
        status.setLiveConnectionsUnbounded(facts.anyNumber ? Boolean.TRUE : null);
        status.setTargetCount((int) result.targets().stream().filter(t -> t.workload() != null).count());
        TargetRows.set(status, result.targets(), result.plan().terminatingMarks(), facts.budget, result.demand());
        // True exactly while the pods hold more than the budget: a pod that began terminating is counted once (see
        // PodCounts), so a routine rollout that fits reads as within the budget at every pass.
        boolean declaredOver = !facts.oversubscribed && (facts.anyNumber || facts.live > facts.budget);
        Instant since = !declaredOver ? null : overSince != null ? overSince : clock.instant();
        // once reported it lasts while the pods declare more; a new moment is reported once it outlasts the grace.
        // The grace is for a routine rollout's sized pods that start or stop; pods the operator has not sized yet that
        // may open more than their plan gives them are no such artefact: where that excess is what puts the count over
        // the budget (an adoption), it is reported from the first pass, and Ready says so
        long excess = result.unsizedExcess();
        boolean unsizedOver = facts.anyNumber || excess > 0 && facts.live - excess <= facts.budget;
        boolean liveOver = declaredOver && (wasLiveOver || unsizedOver
                || !since.plus(liveGrace).isAfter(clock.instant()));
        List<Condition> conditions = new ArrayList<>();
        conditions.add(ready(policy, facts, liveOver, previous, generation));
        conditions.add(oversubscribed(facts, liveOver, since, previous, generation));
        conditions.add(rollout(facts, previous, generation));
        conditions.add(Conditions.carry(previous, Conditions.CONFLICT, facts.conflicts.isEmpty() ? FALSE : TRUE,
                facts.conflicts.isEmpty() ? Conditions.REASON_NO_CONFLICT : Conditions.REASON_CONFLICT,
                facts.conflicts.isEmpty() ? "no workload is claimed twice or blocked by another field manager"
                        : facts.conflicts,
                generation, clock));
        status.setConditions(conditions);
        if (observed != null) {
            ObservedAggregator.apply(status, observed.spec(), observed.observation(), observed.podIps(),
                    observed.instances(), previous, generation, clock);
        }
        return new Built(status, since);
    }

    /**
     * A pass that failed unexpectedly (a bug, an object the schema let through that the planner cannot read, an answer
     * of the API server it does not expect): Ready=False with reason ReconcileError, naming the {@code cause} in a
     * user's words; the rest of the status is left as it was.
     */
    public PoolPolicyStatus error(PoolPolicy policy, String cause, List<Condition> previous) {
        var status = policy.getStatus() == null ? new PoolPolicyStatus()
                : JSON.convertValue(policy.getStatus(), PoolPolicyStatus.class);
        String message = "the operator could not finish a pass over this policy: " + cause
                + ". It retries with back-off; if this stays, check the objects named here and the operator's log";
        List<Condition> conditions = new ArrayList<>(status.getConditions() == null ? List.of()
                : status.getConditions().stream().filter(c -> !Conditions.READY.equals(c.getType())).toList());
        conditions.add(0,
                Conditions.carry(previous, Conditions.READY, FALSE, Conditions.REASON_RECONCILE_ERROR, message,
                        generation(policy), clock));
        status.setConditions(conditions);
        return status;
    }

    /** When an over-budget moment declared {@code since} and still inside the grace should be looked at again. */
    public Duration recheck(Instant since) {
        if (since == null) {
            return null;
        }
        Duration left = Duration.between(clock.instant(), since.plus(liveGrace));
        return left.isNegative() || left.isZero() ? null : left;
    }

    /** What the conditions are made of. */
    private record Facts(PassResult result, Allocation a, long budget, boolean oversubscribed, long live,
            long atDefault, long departing, boolean wasLiveOver, boolean anyNumber, String conflicts, String problems,
            String moving, boolean dryRun) {
        Facts(PassResult result, Allocation a, long live, long atDefault, long departing, boolean wasLiveOver,
                boolean anyNumber) {
            this(result, a, a.budget().connections(), a.verdict() == Allocation.Verdict.OVERSUBSCRIBED, live, atDefault,
                    departing, wasLiveOver, anyNumber, firstOf(result, EnumSet.of(State.Conflict)),
                    firstOf(result, EnumSet.of(State.NotFound, State.Invalid, State.Paused, State.Stalled)),
                    firstOf(result, EnumSet.of(State.Rolling, State.Stalled, State.Pending)),
                    result.targets().stream().anyMatch(t -> t.state() == State.DryRun));
        }

        /** Over the budget: what the pods hold, what the plan allocates, and what explains the difference. */
        String liveText() {
            return Holding.words(live, atDefault, departing, anyNumber, " of " + budget + " connections now",
                    "terminating pods included") + "; the plan allocates " + a.allocated()
                    + (dryRun ? ", and they keep them: a dry run "
                            + "writes nothing"
                            : !moving.isEmpty() ? "; in progress: " + moving : ": " + Holding.cause(result));
        }
    }

    private Condition ready(PoolPolicy policy, Facts f, boolean liveOver, List<Condition> previous, long generation) {
        String reason;
        String message;
        if (f.oversubscribed) {
            reason = Conditions.REASON_OVERSUBSCRIBED;
            message = f.a.unallocatedReason();
        } else if (!f.conflicts.isEmpty()) {
            reason = Conditions.REASON_CONFLICT;
            message = "not written because of a conflict: " + f.conflicts;
        } else if (!f.problems.isEmpty()) {
            reason = Conditions.REASON_TARGET_PROBLEM;
            message = f.problems;
        } else if (liveOver && !f.dryRun) {
            reason = Conditions.REASON_LIVE_OVER_BUDGET;
            message = f.liveText();
        } else {
            reason = f.dryRun ? Conditions.REASON_DRY_RUN : Conditions.REASON_RECONCILED;
            message = f.dryRun ? "dry run: sizes computed, nothing written" : "every target is sized within the budget"
                    + (observes(policy) ? "" : "; the sizes are declared in the pod specs, not verified: set "
                            + "spec.database.observe to compare them with the database's own count (an app that does not "
                            + "read the injected variable keeps its own pool)");
        }
        boolean ready = reason.equals(Conditions.REASON_RECONCILED) || reason.equals(Conditions.REASON_DRY_RUN);
        return Conditions.carry(previous, Conditions.READY, ready ? TRUE : FALSE, reason, message, generation, clock);
    }

    private Condition oversubscribed(Facts f, boolean liveOver, Instant since, List<Condition> previous,
            long generation) {
        String message = f.oversubscribed ? (f.budget == 0 ? "the budget is 0: " + f.a.unallocatedReason()
                : String.format(Locale.ROOT, "%.2f× the budget: %s", f.a.ratio(), f.a.unallocatedReason()))
                : liveOver ? f.liveText()
                        : f.a.allocated() + " of " + f.budget + " connections allocated; "
                                + Holding.words(f.live, f.atDefault, f.departing, f.anyNumber,
                                        since != null ? " now by their specs" : " now", null)
                                + (since != null ? ", more than the budget since " + since + " (reported if it lasts "
                                        + liveGrace.toSeconds()
                                        + " s: pods starting or shutting down may not hold their pool)" : "");
        return Conditions.carry(previous, Conditions.OVERSUBSCRIBED, f.oversubscribed || liveOver ? TRUE : FALSE,
                f.oversubscribed ? Conditions.REASON_OVERSUBSCRIBED
                        : liveOver ? Conditions.REASON_LIVE_OVER_BUDGET : Conditions.REASON_WITHIN_BUDGET,
                message, generation, clock);
    }

    private Condition rollout(Facts f, List<Condition> previous, long generation) {
        return Conditions.carry(previous, Conditions.ROLLOUT_IN_PROGRESS, f.moving.isEmpty() ? FALSE : TRUE,
                f.moving.isEmpty() ? Conditions.REASON_SETTLED
                        : firstOf(f.result, EnumSet.of(State.Pending)).isEmpty() ? Conditions.REASON_ROLLING
                                : Conditions.REASON_PENDING,
                f.moving.isEmpty() ? "every written size is rolled out"
                        : "in progress: " + f.moving + transition(f.result, f.moving),
                generation, clock);
    }

    /** What a rollout in progress may hold past the budget, where the target named first does not say it already. */
    private static String transition(PassResult result, String shown) {
        return result.targets().stream().map(io.poolbudget.decide.TargetOutcome::transition)
                .filter(t -> t != null && !shown.contains(t)).findFirst().map(t -> "; " + t).orElse("");
    }

    private static boolean observes(PoolPolicy p) {
        return p.getSpec() != null && p.getSpec().getDatabase() != null
                && p.getSpec().getDatabase().getObserve() != null;
    }

    private static long generation(PoolPolicy policy) {
        return policy.getMetadata().getGeneration() == null ? 0 : policy.getMetadata().getGeneration();
    }

    /** The first target in one of {@code states}, with its cause, and how many more there are; "" when none. */
    private static String firstOf(PassResult result, Set<State> states) {
        var matching = result.targets().stream().filter(t -> states.contains(t.state()))
                .sorted(Comparator.comparing(t -> t.kind() + "/" + t.name())).toList();
        if (matching.isEmpty()) {
            return "";
        }
        var first = matching.get(0);
        String what = first.name() == null ? first.message()
                : first.kind() + "/" + first.name() + " (" + first.state() + ": " + first.message() + ")";
        return matching.size() == 1 ? what : what + " and " + (matching.size() - 1) + " more (see status.targets)";
    }
}
