package io.poolbudget.decide;

import io.poolbudget.write.WorkloadWriter;

import io.poolbudget.api.v1alpha1.InjectionMode;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.TargetStatus;
import io.poolbudget.planning.InvalidPolicyException;
import io.poolbudget.planning.PolicyPlanner;
import io.poolbudget.planning.PolicyPlanner.PolicyPlan;
import io.poolbudget.planning.SharedBudgets;
import io.poolbudget.planning.Workload;
import io.poolbudget.decide.RolloutDecider.Action;
import io.poolbudget.decide.RolloutDecider.Decision;
import io.poolbudget.sizing.TargetAllocation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.List;
import java.util.Map;

/**
 * One reconcile pass for one PoolPolicy: plan, find conflicts with other policies, decide what may
 * change now, write that (unless dryRun) and describe every target's state and what its pods hold
 * now. Reads only the view it is given; writes only through the writer, and only for targets whose
 * size must change.
 */
public final class PolicyPass {
    public enum State { Applied, Rolling, Stalled, Paused, Pending, DryRun, Conflict, NotFound, Invalid }

    /**
     * What a target's pods hold now, in connections, by their own specs, terminating pods included: {@code connections}
     * in all; {@code atDefault} of them counted at the app's default for pods that carry no size (what such a pod may
     * open, not what it holds); {@code departing}, not among them, pods the operator did not size that left the
     * workload's count and may still hold theirs (see {@link ClusterView.Live}).
     */
    public record Held(long connections, long atDefault, long departing) {
        public static Held of(ClusterView.Live live, int poolsPerPod) {
            return new Held(live.connections(poolsPerPod), live.atDefault() * poolsPerPod, live.departing() * poolsPerPod);
        }
    }

    /**
     * {@code allocation} and {@code workload} are null for a target that resolved to nothing;
     * {@code held} is what the workload's pods hold now (null when it does not exist).
     */
    public record TargetOutcome(String kind, String name, Workload workload, TargetAllocation allocation, Integer applied,
                         State state, String message, Instant pendingSince, boolean wrote, Held held) {
        /** Connections the pods hold now; null when the workload does not exist. */
        public Long live() { return held == null ? null : held.connections(); }
    }

    /** {@code invalid} is set, and the rest empty, when the spec cannot be planned. */
    public record Result(PolicyPlan plan, InvalidPolicyException invalid, List<TargetOutcome> targets, Duration requeue) {
        public static Result invalid(InvalidPolicyException e) { return new Result(null, e, List.of(), null); }

        /** Connections the targets' pods hold now, by their own specs, terminating pods included. */
        public long liveConnections() { return sum(Held::connections); }

        /** Of {@link #liveConnections}, those counted at the app's default: what pods not yet sized may open. */
        public long atDefaultConnections() { return sum(Held::atDefault); }

        /** Connections pods the operator did not size may still hold while they shut down (not in the others). */
        public long departingConnections() { return sum(Held::departing); }

        private long sum(java.util.function.ToLongFunction<Held> part) {
            return targets.stream().filter(t -> t.held() != null).mapToLong(t -> part.applyAsLong(t.held())).sum();
        }
    }

    private PolicyPass() {}

    /** Where the operator runs without DatabaseBudgets. */
    private static final PolicyPlanner.SharedBudgets OFF = p -> {
        throw new InvalidPolicyException("spec.databaseRef", "names DatabaseBudget " + SharedBudgets.ref(p) + ", but this "
                + "installation does not read DatabaseBudgets (it watches only some namespaces, or sharedBudgets.enabled "
                + "is false): give this policy its own spec.database");
    };

    public static Result run(PoolPolicy policy, ClusterView view, Collection<PoolPolicy> neighbours, WorkloadWriter writer,
                      Instant now, Duration window) {
        return run(policy, view, neighbours, null, writer, now, window);
    }

    /**
     * Told what a pass is about to write, just before the writes go out: the pass's outcome with each target being
     * written in state Rolling (or Paused), "writing pool size N", and the size it had before as applied. The
     * reconciler puts that in the status, so that the status shows a change at once rather than after the writes'
     * round trip; the pass's own outcome, after its writes, follows it.
     */
    @FunctionalInterface
    public interface Announcer {
        Announcer NONE = writing -> { };

        void announce(Result writing);
    }

    public static Result run(PoolPolicy policy, ClusterView view, Collection<PoolPolicy> neighbours, SharedBudgets shared,
                      WorkloadWriter writer, Instant now, Duration window) {
        return run(policy, view, neighbours, shared, writer, now, window, Announcer.NONE);
    }

    /** {@code shared}: the DatabaseBudgets a policy may reference (null where there are none). */
    public static Result run(PoolPolicy policy, ClusterView view, Collection<PoolPolicy> neighbours, SharedBudgets shared,
                      WorkloadWriter writer, Instant now, Duration window, Announcer announcer) {
        PolicyPlan plan;
        try {
            plan = PolicyPlanner.plan(policy, view, shared == null ? OFF : shared);
        } catch (InvalidPolicyException e) {
            return Result.invalid(e);
        }
        InjectionSpec injection = policy.getSpec().getInjection();
        boolean dryRun = Boolean.TRUE.equals(policy.getSpec().getDryRun()) || injection == null;
        int appDefault = Injection.appDefault(injection);
        Owner owner = Owner.of(policy);
        Map<String, List<Claims.Claim>> claimedByOthers = Claims.byOthers(policy, neighbours, view);
        Map<String, TargetStatus> previous = previousTargets(policy);

        List<TargetOutcome> outcomes = new ArrayList<>();
        List<Sized> sized = new ArrayList<>();
        // raises also wait for the other policies of a shared budget, in every namespace, to shrink first
        List<String> blockers = new ArrayList<>(shared == null ? List.of() : shared.blockers(policy));
        String budget = shared == null ? null : SharedBudgets.ref(policy);
        for (int i = 0; i < plan.targets().size(); i++) {
            Workload w = plan.targets().get(i).workload();
            TargetAllocation a = plan.allocation().targets().get(i);
            List<String> containers = List.of();
            String problem = null;
            State state = State.Conflict;
            try {
                containers = injection == null ? List.of() : Injection.containers(injection, view.template(w).getSpec());
            } catch (IllegalArgumentException e) {
                problem = e.getMessage();
                state = State.Invalid;
            }
            Held live = Held.of(view.live(w, owner, injection, containers), a.poolsPerPod());
            Integer applied = injection == null || problem != null ? null
                    : Injection.appliedSize(owner, injection, view.template(w), containers, view.configMap(w, owner));
            if (problem == null && injection != null) {
                problem = Claims.conflict(Claims.writes(injection, containers), claimedByOthers.get(w.id()));
            }
            if (problem == null && injection != null) {
                problem = Injection.foreignValueFrom(owner, w.kind(), w.name(), injection, view.template(w).getSpec(),
                        containers);
            }
            if (problem != null) {
                int holds = applied == null ? appDefault : applied;
                if (holds > a.poolSize()) {
                    // it keeps its larger pools: budget the plan gives others is not free yet
                    blockers.add(w.id() + " (holds " + holds + " per pod, cannot be lowered: " + state + ")");
                }
                outcomes.add(new TargetOutcome(w.kind().name(), w.name(), w, a, applied, state, problem, null, false, live));
                continue;
            }
            TargetStatus before = previous.get(w.id());
            Instant since = before == null || before.getPendingSince() == null ? null : Instant.parse(before.getPendingSince());
            boolean rolledOut = view.rolledOut(w, owner, injection, containers);
            // a rollout that is not progressing is looked for only where one is in progress
            boolean reported = before != null && State.Stalled.name().equals(before.getState())
                    && java.util.Objects.equals(before.getAppliedPoolSize(), applied);
            String stalled = rolledOut || injection == null ? null
                    : view.stalled(w, owner, injection, containers, reported);
            sized.add(new Sized(w, a, plan.targets().get(i).index(), containers, live, view.paused(w), stalled,
                    new RolloutDecider.TargetState(w.id(), a.poolSize(), applied, rolledOut, since, appDefault,
                            stalled != null, view.runningHolds(w, owner, injection, containers)),
                    budgetChange(owner, view.template(w).getMetadata(), budget)));
        }
        List<Decision> decisions = RolloutDecider.decide(sized.stream().map(Sized::state).toList(), blockers, now, window);
        List<Supplier<CompletableFuture<TargetOutcome>>> acts = new ArrayList<>();
        List<TargetOutcome> writing = new ArrayList<>(outcomes);
        boolean anyWrite = false;
        boolean retrying = false;
        for (int i = 0; i < sized.size(); i++) {
            Decision d = decisions.get(i);
            String change = sized.get(i).budgetChange();
            if (d.action() == Action.NONE && change != null) {
                d = new Decision(d.id(), Action.APPLY, null, "pool size " + sized.get(i).allocation().poolSize()
                        + " written again " + change);
            }
            Sized target = sized.get(i);
            Decision decision = d;
            // The writes of one pass go out together: each decision was made for this pass already (a raise that must
            // wait for shrinks is held, not written), and the status waits for the last of them.
            boolean writes = decision.action() == Action.APPLY && !dryRun;
            if (writes) {
                acts.add(() -> CompletableFuture.supplyAsync(
                        () -> act(policy, owner, view, target, decision, budget, false, writer), WRITES));
                writing.add(beingWritten(target, decision));
            } else {
                var outcome = act(policy, owner, view, target, decision, budget, dryRun, writer);
                acts.add(() -> CompletableFuture.completedFuture(outcome));
                writing.add(outcome);
            }
            anyWrite |= writes;
            TargetStatus before = writes ? previous.get(target.workload().id()) : null;
            retrying |= before != null && State.Conflict.name().equals(before.getState());
        }
        List<TargetOutcome> missing = plan.missing().stream().map(m -> new TargetOutcome(m.kind().name(), m.name(),
                null, null, null, State.NotFound, m.problem(), null, false, null)).toList();
        // Not where a write failed last time: a status saying it is being written again would read as resolved, only
        // to say the same failure a moment later. The status goes out before the writes, not among them: a write
        // rolls a workload out, and ten rollouts starting at once slow the API server for the status that says why
        // (the status goal is 100 ms, the template's 1 s; one round trip more for the templates is the cheaper wait).
        RuntimeException unannounced = null;
        if (anyWrite && !retrying) {
            writing.addAll(missing);
            try {
                announcer.announce(new Result(plan, null, writing, null));
            } catch (RuntimeException e) {
                unannounced = e; // thrown once the writes have returned: the pass ends after them, whatever happens
            }
        }
        List<CompletableFuture<TargetOutcome>> started = acts.stream().map(Supplier::get).toList();
        for (var act : started) {
            outcomes.add(joined(act));
        }
        if (unannounced != null) {
            throw unannounced;
        }
        outcomes.addAll(missing);
        return new Result(plan, null, outcomes, dryRun ? null : RolloutDecider.nextCheck(decisions, now, window));
    }

    /** A target whose new size is being written, as the status shows it until the write has returned. */
    private static TargetOutcome beingWritten(Sized s, Decision d) {
        int size = s.allocation().poolSize();
        return s.paused() ? s.pausedOutcome(s.state().applied(), "while pool size " + size + " is being written", false)
                : s.outcome(s.state().applied(), State.Rolling, "writing pool size " + size + ": " + d.reason(), null, false);
    }

    /**
     * Why a workload this policy sized must be written again at the same size: its pods record another DatabaseBudget
     * than the one the policy draws on now (so they would count against the old one for as long as they live, and not
     * against the new one); null when they record the right one, or before the first write.
     */
    public static String budgetChange(Owner owner, io.fabric8.kubernetes.api.model.ObjectMeta template, String budget) {
        String carried = Owner.annotation(template, owner.budgetAnnotation());
        if (!owner.sized(template) || java.util.Objects.equals(carried, budget)) {
            return null;
        }
        return carried == null ? "to record DatabaseBudget " + budget + " on its pods"
                : budget == null ? "without DatabaseBudget " + carried + ": its pods count against it until replaced"
                : "to record DatabaseBudget " + budget + " instead of " + carried + " on its pods";
    }

    /** {@code index}: the spec.targets entry that resolved to it; {@code stalled}: why its rollout is stuck, or null. */
    private record Sized(Workload workload, TargetAllocation allocation, int index, List<String> containers, Held live,
                         boolean paused, String stalled, RolloutDecider.TargetState state, String budgetChange) {
        public TargetOutcome outcome(Integer applied, State state, String message, Instant pendingSince, boolean wrote) {
            return new TargetOutcome(workload.kind().name(), workload.name(), workload, allocation, applied, state, message,
                    pendingSince, wrote, live);
        }

        /** A paused Deployment keeps the pods it has: say what they hold and how to go on. */
        public TargetOutcome pausedOutcome(Integer applied, String what, boolean wrote) {
            return outcome(applied, State.Paused, "paused (kubectl rollout pause) " + what + ": its pods hold "
                    + live.connections() + " connections, the plan gives it " + allocation.connections()
                    + "; resume it with kubectl rollout resume deployment/" + workload.name(), null, wrote);
        }
    }

    private static TargetOutcome act(PoolPolicy policy, Owner owner, ClusterView view, Sized s, Decision d,
                                     String budget, boolean dryRun, WorkloadWriter writer) {
        Workload w = s.workload();
        int size = s.allocation().poolSize();
        Integer applied = s.state().applied();
        if (dryRun) {
            String what = d.action() == Action.NONE ? d.reason() : "would " + d.action().name().toLowerCase().replace('_', ' ')
                    + ": " + d.reason();
            return s.outcome(applied, State.DryRun, what, null, false);
        }
        return switch (d.action()) {
            case NONE -> s.state().rolledOut() ? s.outcome(applied, State.Applied, d.reason(), null, false)
                    : s.paused() ? s.pausedOutcome(applied, "before its pods took pool size " + size, false)
                    : s.stalled() != null ? s.outcome(applied, State.Stalled, stalledText(s, applied)
                    + "; raises that wait for it keep waiting. Fix the workload (kubectl rollout status/undo "
                    + "deployment/" + w.name() + ") or the policy", null, false)
                    : s.outcome(applied, State.Rolling, "rolling out", null, false);
            // a stall stays reported whatever else the target waits for
            case HOLD_FOR_WINDOW, HOLD_FOR_ROLLOUTS -> s.stalled() != null
                    ? s.outcome(applied, State.Stalled, stalledText(s, applied) + ". Its " + d.reason(), d.pendingSince(),
                    false)
                    : s.outcome(applied, State.Pending, d.reason(), d.pendingSince(), false);
            case APPLY -> {
                var injection = policy.getSpec().getInjection();
                String problem = null;
                if (injection.getMode() == InjectionMode.ConfigMap) {
                    problem = writer.apply(owner.fieldManager(), Injection.configMap(w.kind(), w.namespace(), w.name(),
                            owner, size));
                }
                if (problem == null) {
                    problem = writer.apply(owner.fieldManager(), Injection.workloadPatch(w.kind(), w.namespace(),
                            w.name(), owner, injection, s.containers(), size, budget, s.allocation().poolsPerPod()));
                }
                if (problem != null) {
                    yield s.outcome(applied, State.Conflict, problem, null, false);
                }
                yield s.paused() ? s.pausedOutcome(size, "and pool size " + size + " written (" + d.reason() + ")", true)
                        : s.outcome(size, State.Rolling, d.reason(), null, true);
            }
        };
    }

    /**
     * A rollout that stopped making progress (crash-looping new pods, ProgressDeadlineExceeded) is a problem to report,
     * not "rolling out": the size it carries has not taken effect. Where its running pods hold more than that size, the
     * app may not start with it: say what fixes that.
     */
    private static String stalledText(Sized s, Integer applied) {
        int running = s.state().runningHolds();
        String field = "spec.targets[" + s.index() + "].minPoolSize";
        String fix = applied == null || running <= applied ? "" : ". If the app cannot start with a pool of " + applied
                + (applied == 1 ? " (one that takes a second connection while it holds one cannot), set " + field + ": 2"
                : ", set " + field + " to the smallest pool it starts with (its running pods hold " + running + ")")
                + " or give the database more budget";
        return "pool size " + applied + " has not taken effect: " + s.stalled() + "; its old pods keep their pools" + fix;
    }

    /** Threads for the writes of a pass (shared by every pass; a write is one API call and mostly waits). */
    private static final Executor WRITES = Executors.newFixedThreadPool(8, r -> {
        Thread t = new Thread(r, "poolbudget-writes");
        t.setDaemon(true);
        return t;
    });

    /** A write's outcome; what it threw is thrown again as it was, for the reconciler's error handling. */
    private static TargetOutcome joined(CompletableFuture<TargetOutcome> act) {
        try {
            return act.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    private static Map<String, TargetStatus> previousTargets(PoolPolicy policy) {
        Map<String, TargetStatus> byId = new HashMap<>();
        if (policy.getStatus() != null && policy.getStatus().getTargets() != null) {
            policy.getStatus().getTargets().forEach(t -> byId.put(t.getKind() + "/" + t.getName(), t));
        }
        return byId;
    }
}
