package io.poolbudget.status;

import io.poolbudget.decide.ClusterView;
import io.poolbudget.decide.PolicyPass;
import io.poolbudget.observe.ObservationSource;

import static io.poolbudget.status.Conditions.FALSE;
import static io.poolbudget.status.Conditions.TRUE;

import io.fabric8.kubernetes.api.model.Condition;
import io.poolbudget.api.v1alpha1.BudgetStatus;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.api.v1alpha1.TargetStatus;
import io.poolbudget.api.v1alpha1.TerminatingMark;
import io.poolbudget.planning.TerminatingMarks;
import io.poolbudget.decide.PolicyPass.State;
import io.poolbudget.decide.PolicyPass.TargetOutcome;
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
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** Builds the whole desired status from one pass's result. Pure: no client, no I/O. */
public final class StatusAggregator {
    /** Targets listed in full; the object must stay far below the API server's ~1.5 MB limit. */
    public static final int DETAILED_TARGETS = 100;
    public static final Set<State> PROBLEMS = EnumSet.of(State.Conflict, State.NotFound, State.Invalid, State.Paused,
            State.Stalled);

    private final Clock clock;
    private final Duration liveGrace;
    /** Since when each policy's pods have declared more than its budget, while they do (this process's memory). */
    private final Map<String, Instant> declaredOverSince = new ConcurrentHashMap<>();

    /** Reports the pods' declared total above the budget at once (tests, and pods that hold exactly what they declare). */
    public StatusAggregator(Clock clock) {
        this(clock, Duration.ZERO);
    }

    /**
     * {@code liveGrace}: how long the pods' declared total must stay above the budget before it is reported. A pod
     * that has just started may not have opened its pool yet, and one that is shutting down may have closed it while
     * the pod still exists: mid-rollout the declared total runs ahead of the database's count for a few seconds.
     */
    public StatusAggregator(Clock clock, Duration liveGrace) {
        this.clock = clock;
        this.liveGrace = liveGrace;
    }

    /** When a declared over-budget moment still inside the grace should be looked at again; null if none is. */
    public Duration recheck(PoolPolicy policy) {
        Instant since = declaredOverSince.get(key(policy));
        if (since == null) {
            return null;
        }
        Duration left = Duration.between(clock.instant(), since.plus(liveGrace));
        return left.isNegative() || left.isZero() ? null : left;
    }

    public void forget(PoolPolicy policy) {
        declaredOverSince.remove(key(policy));
    }

    private static String key(PoolPolicy p) {
        return p.getMetadata().getUid() != null ? p.getMetadata().getUid()
                : p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    }

    public PoolPolicyStatus status(PoolPolicy policy, PolicyPass.Result result) {
        return status(policy, result, policy.getStatus() == null ? null : policy.getStatus().getConditions());
    }

    /**
     * {@code previous}: the conditions this process last reported for the policy, where it has (the informer's copy
     * of the status can lag its own patch by a pass, and a stale copy must not end a condition that lasts).
     */
    public PoolPolicyStatus status(PoolPolicy policy, PolicyPass.Result result, List<Condition> previous) {
        long generation = policy.getMetadata().getGeneration() == null ? 0 : policy.getMetadata().getGeneration();
        var status = new PoolPolicyStatus();
        status.setObservedGeneration(generation);
        List<Condition> conditions = new ArrayList<>();
        if (result.invalid() != null) {
            conditions.add(Conditions.carry(previous, Conditions.READY, FALSE, Conditions.REASON_INVALID_SPEC,
                    result.invalid().getMessage(), generation, clock));
            status.setConditions(conditions);
            return status;
        }
        Allocation a = result.plan().allocation();
        long budget = a.budget().connections();
        boolean wasLiveOver = previous != null && previous.stream().anyMatch(c -> Conditions.OVERSUBSCRIBED
                .equals(c.getType()) && Conditions.REASON_LIVE_OVER_BUDGET.equals(c.getReason()));
        // Pods the operator did not size that left their workload's count may hold their pools until they exit (where
        // the API server does not count terminating pods itself): they do not start an over-budget moment, but one
        // that is reported ends only once they can no longer hold any, so that its all-clear is true.
        long departing = wasLiveOver ? result.departingConnections() : 0;
        long live = result.liveConnections() + departing;
        long atDefault = result.atDefaultConnections();
        status.setBudget(budgetStatus(a.budget()));
        status.setAllocated(a.allocated());
        status.setUnallocated(a.unallocated());
        status.setUnallocatedReason(a.verdict() == Allocation.Verdict.FITS ? a.unallocatedReason() : null);
        status.setLiveConnections(live);
        status.setTargetCount((int) result.targets().stream().filter(t -> t.workload() != null).count());
        setTargets(status, result.targets(), result.plan().terminatingMarks(), a.budget().connections());

        boolean oversubscribed = a.verdict() == Allocation.Verdict.OVERSUBSCRIBED;
        String conflicts = firstOf(result, EnumSet.of(State.Conflict));
        String problems = firstOf(result, EnumSet.of(State.NotFound, State.Invalid, State.Paused, State.Stalled));
        String moving = firstOf(result, EnumSet.of(State.Rolling, State.Stalled, State.Pending));
        boolean dryRun = result.targets().stream().anyMatch(t -> t.state() == State.DryRun);
        // True exactly while the pods hold more than the budget: a pod that began terminating is counted once (see
        // ClusterView.live), so a routine rollout that fits reads as within the budget at every pass.
        boolean declaredOver = !oversubscribed && live > budget;
        Instant overSince = declaredOver ? declaredOverSince.computeIfAbsent(key(policy), k -> clock.instant()) : null;
        if (!declaredOver) {
            declaredOverSince.remove(key(policy));
        }
        // once reported it lasts while the pods declare more; a new moment is reported once it outlasts the grace
        boolean liveOver = declaredOver && (wasLiveOver || !overSince.plus(liveGrace).isAfter(clock.instant()));
        String liveText = held(live, atDefault, departing, " of " + budget + " connections now", "terminating pods "
                + "included") + "; the plan allocates " + a.allocated() + (dryRun ? ", and they keep them: a dry run writes nothing"
                : !moving.isEmpty() ? "; in progress: " + moving
                : ": more pods hold pools at once than the plan's peak pods allow for (old pods that outlast a rollout "
                + "step, or pods started outside a rollout)" + overAllocation(result));

        String readyReason;
        String readyMessage;
        if (oversubscribed) {
            readyReason = Conditions.REASON_OVERSUBSCRIBED;
            readyMessage = a.unallocatedReason();
        } else if (!conflicts.isEmpty()) {
            readyReason = Conditions.REASON_CONFLICT;
            readyMessage = "not written because of a conflict: " + conflicts;
        } else if (!problems.isEmpty()) {
            readyReason = Conditions.REASON_TARGET_PROBLEM;
            readyMessage = problems;
        } else if (liveOver && !dryRun) {
            readyReason = Conditions.REASON_LIVE_OVER_BUDGET;
            readyMessage = liveText;
        } else {
            readyReason = dryRun ? Conditions.REASON_DRY_RUN : Conditions.REASON_RECONCILED;
            readyMessage = dryRun ? "dry run: sizes computed, nothing written" : "every target is sized within the budget"
                    + (ObservationSource.spec(policy) != null ? "" : "; the sizes are declared in the pod specs, not "
                    + "verified: set spec.database.observe to compare them with the database's own count (an app that "
                    + "does not read the injected variable keeps its own pool)");
        }
        boolean ready = readyReason.equals(Conditions.REASON_RECONCILED) || readyReason.equals(Conditions.REASON_DRY_RUN);
        conditions.add(Conditions.carry(previous, Conditions.READY, ready ? TRUE : FALSE, readyReason, readyMessage,
                generation, clock));
        conditions.add(Conditions.carry(previous, Conditions.OVERSUBSCRIBED, oversubscribed || liveOver ? TRUE : FALSE,
                oversubscribed ? Conditions.REASON_OVERSUBSCRIBED
                        : liveOver ? Conditions.REASON_LIVE_OVER_BUDGET : Conditions.REASON_WITHIN_BUDGET,
                oversubscribed ? (budget == 0 ? "the budget is 0: " + a.unallocatedReason()
                        : String.format(Locale.ROOT, "%.2f× the budget: %s", a.ratio(), a.unallocatedReason()))
                        : liveOver ? liveText
                        : a.allocated() + " of " + budget + " connections allocated; " + held(live, atDefault, departing,
                        declaredOver ? " now by their specs" : " now", null)
                        + (declaredOver ? ", more than the budget since " + overSince + " (reported if it "
                        + "lasts " + liveGrace.toSeconds() + " s: pods starting or shutting down may not hold their pool)"
                        : ""),
                generation, clock));
        conditions.add(Conditions.carry(previous, Conditions.ROLLOUT_IN_PROGRESS, moving.isEmpty() ? FALSE : TRUE,
                moving.isEmpty() ? Conditions.REASON_SETTLED
                        : firstOf(result, EnumSet.of(State.Pending)).isEmpty() ? Conditions.REASON_ROLLING
                        : Conditions.REASON_PENDING,
                moving.isEmpty() ? "every written size is rolled out" : "in progress: " + moving, generation, clock));
        conditions.add(Conditions.carry(previous, Conditions.CONFLICT, conflicts.isEmpty() ? FALSE : TRUE,
                conflicts.isEmpty() ? Conditions.REASON_NO_CONFLICT : Conditions.REASON_CONFLICT,
                conflicts.isEmpty() ? "no workload is claimed twice or blocked by another field manager"
                        : conflicts, generation, clock));
        status.setConditions(conditions);
        return status;
    }

    /**
     * What the pods hold, as "the pods hold 16{@code of}", in words that say what is counted: where pods the operator
     * has not sized yet are counted at the app's default pool, that is what they may open, not what they hold (the
     * database's own count, with spec.database.observe, tells); pods that may still be shutting down are named.
     */
    public static String held(long live, long atDefault, long departing, String of, String note) {
        List<String> notes = new ArrayList<>();
        if (note != null) {
            notes.add(note);
        }
        if (atDefault > 0) {
            notes.add(atDefault + " of them at the app's default pool, for pods the operator has not sized yet: what those "
                    + "may open, not what they hold");
        }
        if (departing > 0) {
            notes.add(departing + " of them in pods it did not size that have left their workload and may still be "
                    + "shutting down, counted until their terminationGracePeriodSeconds is over");
        }
        return (atDefault > 0 ? "the pods may open " : "the pods hold ") + live + of
                + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")");
    }

    /** The targets whose pods hold more than their allocation, as "; Deployment/web holds 16 of its 12". */
    private static String overAllocation(PolicyPass.Result result) {
        var over = result.targets().stream().filter(t -> t.live() != null && t.allocation() != null
                && t.live() > t.allocation().connections())
                .map(t -> t.kind() + "/" + t.name() + " holds " + t.live() + " of its " + t.allocation().connections())
                .toList();
        return over.isEmpty() ? "" : ": " + String.join(", ", over);
    }

    /**
     * Problems first, then held raises, rollouts, the rest; in full up to {@link #DETAILED_TARGETS}. Past that only
     * held raises (Pending, or Stalled and waiting) are kept, in short (their pendingSince is the one thing a later pass needs), and the rest counted.
     */
    private static void setTargets(PoolPolicyStatus status, List<TargetOutcome> outcomes,
                                   Map<String, List<TerminatingMarks.Mark>> marks, long budget) {
        Map<String, Integer> states = new TreeMap<>();
        outcomes.forEach(o -> states.merge(o.state().name(), 1, Integer::sum));
        status.setTargetStates(states);
        List<TargetOutcome> ordered = outcomes.stream().sorted(Comparator.comparingInt(StatusAggregator::rank)
                .thenComparing(o -> o.kind() + "/" + o.name())).toList();
        List<TargetStatus> listed = new ArrayList<>();
        for (TargetOutcome o : ordered) {
            if (listed.size() < DETAILED_TARGETS) {
                listed.add(target(o, true, marks, budget));
            } else if (o.pendingSince() != null) {
                listed.add(target(o, false, marks, budget));
            }
        }
        status.setTargets(listed);
        status.setTargetsOmitted(outcomes.size() > listed.size() ? outcomes.size() - listed.size() : null);
    }

    private static int rank(TargetOutcome o) {
        return PROBLEMS.contains(o.state()) ? 0 : o.state() == State.Pending ? 1 : o.state() == State.Rolling ? 2 : 3;
    }

    private static TargetStatus target(TargetOutcome o, boolean full, Map<String, List<TerminatingMarks.Mark>> marks,
                                       long budget) {
        var t = new TargetStatus();
        t.setKind(o.kind());
        t.setName(o.name());
        if (o.allocation() != null) {
            t.setPoolSize(o.allocation().poolSize());
            // remembered, like pendingSince: the plan reads them back on the next pass
            var recent = o.workload() == null ? null : marks.get(o.workload().id());
            if (recent != null && !recent.isEmpty()) {
                t.setTerminatingSeen(recent.stream().map(m -> new TerminatingMark(m.revision(), m.pods())).toList());
                t.setSeenTerminatingPods(TerminatingMarks.most(recent));
            }
            if (full) {
                t.setBasisReplicas(o.allocation().peak().basisReplicas());
                t.setPeakPods(o.allocation().peak().total());
                t.setConnections(o.allocation().connections());
                String advice = o.allocation().reserveAdvice(budget);
                t.setExplanation(o.allocation().peak().explanation() + "; " + o.allocation().explanation()
                        + (advice == null ? "" : ". Note: " + advice));
            }
        }
        t.setAppliedPoolSize(o.applied());
        t.setState(o.state().name());
        if (full) {
            t.setLiveConnections(o.live());
            t.setMessage(o.message());
        }
        t.setPendingSince(o.pendingSince() == null ? null : o.pendingSince().toString());
        return t;
    }

    /** The first target in one of {@code states}, with its cause, and how many more there are; "" when none. */
    private static String firstOf(PolicyPass.Result result, Set<State> states) {
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

    public static BudgetStatus budgetStatus(io.poolbudget.sizing.Budget budget) {
        return new BudgetStatus(budget.connections(), term(budget), budget.explanation());
    }

    private static String term(io.poolbudget.sizing.Budget budget) {
        return switch (budget.term()) {
            case FORMULA -> "Formula";
            case EXPLICIT -> "Explicit";
            case MAX_CONNECTIONS -> "MaxConnections";
            case SHARE -> "Share";
        };
    }
}
