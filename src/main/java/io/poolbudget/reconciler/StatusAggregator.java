package io.poolbudget.reconciler;

import static io.poolbudget.reconciler.Conditions.FALSE;
import static io.poolbudget.reconciler.Conditions.TRUE;

import io.fabric8.kubernetes.api.model.Condition;
import io.poolbudget.api.v1alpha1.BudgetStatus;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.api.v1alpha1.TargetStatus;
import io.poolbudget.reconciler.PolicyPass.State;
import io.poolbudget.reconciler.PolicyPass.TargetOutcome;
import io.poolbudget.sizing.Allocation;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Builds the whole desired status from one pass's result. Pure: no client, no I/O. */
public final class StatusAggregator {
    private final Clock clock;

    public StatusAggregator(Clock clock) {
        this.clock = clock;
    }

    PoolPolicyStatus status(PoolPolicy policy, PolicyPass.Result result) {
        long generation = policy.getMetadata().getGeneration() == null ? 0 : policy.getMetadata().getGeneration();
        List<Condition> previous = policy.getStatus() == null ? null : policy.getStatus().getConditions();
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
        status.setBudget(new BudgetStatus(a.budget().connections(), term(a), a.budget().explanation()));
        status.setAllocated(a.allocated());
        status.setUnallocated(a.unallocated());
        status.setUnallocatedReason(a.verdict() == Allocation.Verdict.FITS ? a.unallocatedReason() : null);
        status.setTargetCount((int) result.targets().stream().filter(t -> t.workload() != null).count());
        status.setTargets(result.targets().stream().map(StatusAggregator::target).toList());

        boolean oversubscribed = a.verdict() == Allocation.Verdict.OVERSUBSCRIBED;
        String conflicts = names(result, State.Conflict);
        String problems = names(result, State.NotFound, State.Invalid);
        String moving = names(result, State.Rolling, State.Pending);
        boolean dryRun = result.targets().stream().anyMatch(t -> t.state() == State.DryRun);

        String readyReason;
        String readyMessage;
        if (oversubscribed) {
            readyReason = Conditions.REASON_OVERSUBSCRIBED;
            readyMessage = a.unallocatedReason();
        } else if (!conflicts.isEmpty()) {
            readyReason = Conditions.REASON_CONFLICT;
            readyMessage = "not written because of conflicts: " + conflicts;
        } else if (!problems.isEmpty()) {
            readyReason = Conditions.REASON_TARGET_PROBLEM;
            readyMessage = "targets with problems (see status.targets): " + problems;
        } else {
            readyReason = dryRun ? Conditions.REASON_DRY_RUN : Conditions.REASON_RECONCILED;
            readyMessage = dryRun ? "dry run: sizes computed, nothing written" : "every target is sized within the budget";
        }
        boolean ready = readyReason.equals(Conditions.REASON_RECONCILED) || readyReason.equals(Conditions.REASON_DRY_RUN);
        conditions.add(Conditions.carry(previous, Conditions.READY, ready ? TRUE : FALSE, readyReason, readyMessage,
                generation, clock));
        conditions.add(Conditions.carry(previous, Conditions.OVERSUBSCRIBED, oversubscribed ? TRUE : FALSE,
                oversubscribed ? Conditions.REASON_OVERSUBSCRIBED : Conditions.REASON_WITHIN_BUDGET,
                oversubscribed ? String.format(Locale.ROOT, "%.2f× the budget: %s", a.ratio(), a.unallocatedReason())
                        : a.allocated() + " of " + a.budget().connections() + " connections allocated", generation, clock));
        conditions.add(Conditions.carry(previous, Conditions.ROLLOUT_IN_PROGRESS, moving.isEmpty() ? FALSE : TRUE,
                moving.isEmpty() ? Conditions.REASON_SETTLED
                        : names(result, State.Pending).isEmpty() ? Conditions.REASON_ROLLING : Conditions.REASON_PENDING,
                moving.isEmpty() ? "every written size is rolled out" : "in progress: " + moving, generation, clock));
        conditions.add(Conditions.carry(previous, Conditions.CONFLICT, conflicts.isEmpty() ? FALSE : TRUE,
                conflicts.isEmpty() ? Conditions.REASON_NO_CONFLICT : Conditions.REASON_CONFLICT,
                conflicts.isEmpty() ? "no workload is claimed twice or blocked by another field manager"
                        : "conflicts: " + conflicts, generation, clock));
        status.setConditions(conditions);
        return status;
    }

    private static TargetStatus target(TargetOutcome o) {
        var t = new TargetStatus();
        t.setKind(o.kind());
        t.setName(o.name());
        if (o.allocation() != null) {
            t.setBasisReplicas(o.allocation().peak().basisReplicas());
            t.setPeakPods(o.allocation().peak().total());
            t.setPoolSize(o.allocation().poolSize());
            t.setConnections(o.allocation().connections());
            t.setExplanation(o.allocation().peak().explanation() + "; " + o.allocation().explanation());
        }
        t.setAppliedPoolSize(o.applied());
        t.setState(o.state().name());
        t.setMessage(o.message());
        t.setPendingSince(o.pendingSince() == null ? null : o.pendingSince().toString());
        return t;
    }

    private static String names(PolicyPass.Result result, State... states) {
        var wanted = List.of(states);
        return result.targets().stream().filter(t -> wanted.contains(t.state()))
                .map(t -> t.kind() + "/" + t.name()).collect(Collectors.joining(", "));
    }

    private static String term(Allocation a) {
        return switch (a.budget().term()) {
            case FORMULA -> "Formula";
            case EXPLICIT -> "Explicit";
            case MAX_CONNECTIONS -> "MaxConnections";
        };
    }
}
