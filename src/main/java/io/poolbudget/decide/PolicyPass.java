package io.poolbudget.decide;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.poolbudget.api.v1alpha1.InjectionMode;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.TargetStatus;
import io.poolbudget.decide.Decision.Slot;
import io.poolbudget.decide.RolloutDecider.Action;
import io.poolbudget.decide.RolloutDecider.Verdict;
import io.poolbudget.decide.TargetOutcome.Held;
import io.poolbudget.decide.TargetOutcome.State;
import io.poolbudget.planning.InvalidPolicyException;
import io.poolbudget.planning.PolicyPlanner;
import io.poolbudget.planning.PolicyPlanner.PolicyPlan;
import io.poolbudget.planning.SharedBudgets;
import io.poolbudget.planning.Workload;
import io.poolbudget.sizing.Limits;
import io.poolbudget.sizing.TargetAllocation;
import io.poolbudget.sizing.TransitionPeaks;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One pass over one PoolPolicy, decided: plan, find conflicts with other policies, decide what may change now, and
 * say, for every target, what it is and what must be written for it. Reads only the view it is given and writes
 * nothing: the writes it intends are data ({@link Decision}), which the controller has applied.
 */
public final class PolicyPass {
    private PolicyPass() {}

    /** Where the operator runs without DatabaseBudgets. */
    private static final PolicyPlanner.SharedBudgets OFF = p -> {
        throw new InvalidPolicyException("spec.databaseRef", "names DatabaseBudget " + SharedBudgets.ref(p)
                + ", but this "
                + "installation does not read DatabaseBudgets (it watches only some namespaces, or sharedBudgets.enabled "
                + "is false): give this policy its own spec.database");
    };

    /**
     * The pass: {@code neighbours} are the policies of its namespace (for claims), {@code shared} the DatabaseBudgets a
     * policy may draw on (null where there are none), {@code window} the stabilisation window of raises.
     */
    public static Decision decide(PoolPolicy policy, ClusterView view, Collection<PoolPolicy> neighbours,
            SharedBudgets shared, Instant now, Duration window) {
        return decide(policy, view, neighbours, shared, now, window, null);
    }

    /** {@code agentImage}: the operator's own image, where resize mode Live's init container copies the agent from. */
    public static Decision decide(PoolPolicy policy, ClusterView view, Collection<PoolPolicy> neighbours,
            SharedBudgets shared, Instant now, Duration window, String agentImage) {
        return decide(policy, view, neighbours, shared, now, window, agentImage, DemandInput.NONE);
    }

    /** {@code demand}: what the allocation by demand remembers and what the database has in use (DemandPass). */
    public static Decision decide(PoolPolicy policy, ClusterView view, Collection<PoolPolicy> neighbours,
            SharedBudgets shared, Instant now, Duration window, String agentImage, DemandInput demand) {
        PolicyPlan plan;
        try {
            plan = PolicyPlanner.plan(policy, view, shared == null ? OFF : shared);
        } catch (InvalidPolicyException e) {
            return Decision.invalid(e);
        }
        var pass = new Pass(policy, view, neighbours, shared, agentImage, now);
        List<Slot> slots = new ArrayList<>();
        List<Sized> sized = new ArrayList<>();
        for (int i = 0; i < plan.targets().size(); i++) {
            pass.read(plan.targets().get(i), plan.allocation().targets().get(i), slots, sized);
        }
        DemandStep.Result allocation = DemandPass.step(policy, view, sized, demand, now);
        List<Verdict> verdicts = DemandPass.verdicts(sized, pass.blockers, now, window, allocation);
        boolean retrying = false;
        List<TransitionPeaks.Change> changes = new ArrayList<>();
        for (int i = 0; i < sized.size(); i++) {
            Slot slot = pass.slot(sized.get(i), verdicts.get(i));
            TargetStatus before = slot.write() == null ? null : pass.previous.get(sized.get(i).workload().id());
            retrying |= before != null && State.Conflict.name().equals(before.getState());
            slots.add(slot);
            pass.change(sized.get(i), slot, changes);
        }
        TransitionNotes.annotate(slots, changes, plan.allocation());
        plan.missing().forEach(m -> slots.add(new Slot(TargetOutcome.missing(m.kind().name(), m.name(), m.problem()),
                null)));
        // The status goes out before the writes, not among them: a write rolls a workload out, and ten rollouts
        // starting at once slow the API server for the status that says why. Not where a write failed last time: a
        // status saying it is being written again would read as resolved, only to say the same failure a moment later.
        boolean announce = !retrying && slots.stream().anyMatch(s -> s.write() != null);
        Duration next = pass.dryRun ? null : RolloutDecider.nextCheck(verdicts, now, window);
        if (pass.liveDeadline > 0) { // a pod that has not confirmed a live size by then makes its target roll out
            Duration live = Duration.ofMillis(Math.max(0, pass.liveDeadline - now.toEpochMilli()));
            next = next == null || live.compareTo(next) < 0 ? live : next;
        }
        return new Decision(plan, null, slots, announce, DemandPass.next(next, allocation),
                List.copyOf(pass.podWrites), allocation);
    }

    /**
     * Why a workload this policy sized must be written again at the same size: its pods record another DatabaseBudget
     * than the one the policy draws on now (so they would count against the old one for as long as they live, and not
     * against the new one); null when they record the right one, or before the first write.
     */
    public static String budgetChange(Owner owner, ObjectMeta template, String budget) {
        String carried = Owner.annotation(template, owner.budgetAnnotation());
        if (!owner.sized(template) || Objects.equals(carried, budget)) {
            return null;
        }
        return carried == null ? "to record DatabaseBudget " + budget + " on its pods"
                : budget == null ? "without DatabaseBudget " + carried + ": its pods count against it until replaced"
                        : "to record DatabaseBudget " + budget + " instead of " + carried + " on its pods";
    }

    /** A target the policy may write: what it is now and what the rollout rules see of it. */
    record Sized(Workload workload, TargetAllocation allocation, int index, List<String> containers, Held live,
            boolean paused, String stalled, RolloutDecider.TargetState state, String budgetChange, LiveTarget resize) {
        TargetOutcome outcome(Integer applied, State state, String message, Instant pendingSince, boolean wrote) {
            String why = resize == null || resize.cannotAdd() == null ? message
                    : message + " (resize Live unavailable: " + resize.cannotAdd() + ")";
            return new TargetOutcome(workload.kind().name(), workload.name(), workload, allocation, applied, state,
                    why, pendingSince, wrote, live, resize == null ? null : resize.status());
        }

        /** The same target at {@code size} in place of its size by weights (the allocation by demand's). */
        Sized sizedAt(int size) {
            if (size == allocation.poolSize()) {
                return this;
            }
            var a = new TargetAllocation(allocation.peak(), size, allocation.fairShare(), allocation.oversubscribed(),
                    allocation.fit(), allocation.strategyCost());
            var t = state;
            return new Sized(workload, a, index, containers, live, paused, stalled, new RolloutDecider.TargetState(
                    t.id(), size, t.applied(), t.holds(), t.rolledOut(), t.pendingSince(), t.stalled(),
                    t.runningHolds()), budgetChange, resize);
        }

        /** Its resize mode Live where the agent can go into its pods; null where it is sized by rollouts. */
        LiveTarget liveAgent() {
            return resize == null || resize.cannotAdd() != null ? null : resize;
        }

        /** A paused Deployment keeps the pods it has: say what they hold and how to go on. */
        TargetOutcome pausedOutcome(Integer applied, String what, boolean wrote) {
            return outcome(applied, State.Paused, "paused (kubectl rollout pause) " + what + ": its pods hold "
                    + (live.anyNumber() ? "any number of" : Long.toString(live.connections()))
                    + " connections, the plan gives it " + allocation.connections()
                    + "; resume it with kubectl rollout resume deployment/" + workload.name(), null, wrote);
        }
    }

    /**
     * A target of a policy in resize mode Live: whether its template loads the agent, why it cannot (null when it
     * can), the size its pods start with, and its pods against the live size (null before the agent is in).
     */
    record LiveTarget(boolean agentIn, String cannotAdd, Integer templateSize, LivePods pods) {
        TargetOutcome.Resize status() {
            return !agentIn || pods == null ? new TargetOutcome.Resize("Rollout", null, null, null)
                    : new TargetOutcome.Resize("Live", pods.confirmed(), pods.pods() - pods.pending().size(),
                            pods.describe(), pods.agents(), pods.agentProblems());
        }
    }

    /** What one pass knows of its policy, for each of its targets. */
    private static final class Pass {
        final PoolPolicy policy;
        final ClusterView view;
        final InjectionSpec injection;
        final boolean dryRun;
        final int appDefault;
        final Owner owner;
        final Map<String, List<Claims.Claim>> claimedByOthers;
        final Map<String, TargetStatus> previous = new HashMap<>();
        /** What holds more than planned outside the sized targets: raises wait for it. */
        final List<String> blockers;
        final String budget;
        /** Resize mode Live: the operator's image (the agent's), the pod writes that publish sizes. */
        final String agentImage;
        final boolean live;
        final long nowMs;
        final long deadlineMs;
        final List<Decision.Write> podWrites = new ArrayList<>();
        /** When the first live-mode pod's deadline ends (epoch ms), 0 when none is waited for. */
        long liveDeadline;

        Pass(PoolPolicy policy, ClusterView view, Collection<PoolPolicy> neighbours, SharedBudgets shared,
                String agentImage, Instant now) {
            this.policy = policy;
            this.view = view;
            this.injection = policy.getSpec().getInjection();
            this.dryRun = Boolean.TRUE.equals(policy.getSpec().getDryRun()) || injection == null;
            this.appDefault = Injection.appDefault(injection);
            this.owner = Owner.of(policy);
            this.claimedByOthers = Claims.byOthers(policy, neighbours, view);
            if (policy.getStatus() != null && policy.getStatus().getTargets() != null) {
                policy.getStatus().getTargets().forEach(t -> previous.put(t.getKind() + "/" + t.getName(), t));
            }
            // raises also wait for the other policies of a shared budget, in every namespace, to shrink first
            this.blockers = new ArrayList<>(shared == null ? List.of() : shared.blockers(policy));
            this.blockers.addAll(view.heldElsewhere()); // connections of gone pods the database still holds
            this.budget = shared == null ? null : SharedBudgets.ref(policy);
            this.agentImage = agentImage;
            this.live = LiveResize.on(injection, agentImage);
            this.nowMs = now.toEpochMilli();
            this.deadlineMs = 1000L * (injection == null || injection.getLiveDeadlineSeconds() == null ? 60
                    : injection.getLiveDeadlineSeconds());
        }

        /** A target that cannot be written goes to {@code slots} with its problem; one that can, to {@code sized}. */
        void read(PolicyPlanner.ResolvedTarget target, TargetAllocation a, List<Slot> slots, List<Sized> sized) {
            Workload w = target.workload();
            List<String> containers = List.of();
            String problem = null;
            State state = State.Conflict;
            try {
                containers = injection == null ? List.of()
                        : Injection.containers(injection, view.template(w).getSpec());
            } catch (IllegalArgumentException e) {
                problem = e.getMessage();
                state = State.Invalid;
            }
            // each pod at its own pools per pod, as at its own size: an older template's pods may fork fewer workers
            Held held = Held.of(view.live(w, owner, injection, containers,
                    PoolsPerPod.of(injection, target.spec(), a.poolsPerPod())));
            Integer applied = injection == null || problem != null ? null
                    : Injection.appliedSize(owner, injection, view.template(w), containers, view.configMap(w, owner));
            if (problem == null && injection != null) {
                problem = Claims.conflict(Claims.writes(injection, containers), claimedByOthers.get(w.id()));
            }
            if (problem == null && injection != null) {
                problem = Injection.foreignValueFrom(owner, w.kind(), w.name(), injection, view.template(w).getSpec(),
                        containers);
            }
            Integer templateSize = applied;
            boolean agentIn = live && problem == null
                    && LiveResize.agentIn(view.template(w).getSpec(), containers, owner);
            Integer liveSize = agentIn ? LiveResize.published(view.object(w).getMetadata(), owner) : null;
            if (liveSize != null) {
                applied = liveSize; // what its pods are to hold now; the template keeps the size they start with
            }
            if (problem != null) {
                int holds = applied == null ? appDefault : applied;
                if (holds > a.poolSize()) {
                    // it keeps its larger pools: budget the plan gives others is not free yet
                    blockers.add(w.id() + " (" + (applied == null && Limits.noPoolLimit(holds)
                            ? RolloutDecider.atDefault(holds) : "holds " + holds + " per pod") + ", cannot be lowered: "
                            + state + ")");
                }
                slots.add(new Slot(new TargetOutcome(w.kind().name(), w.name(), w, a, applied, state, problem, null,
                        false, held), null));
                return;
            }
            LiveTarget resize = !live ? null
                    : new LiveTarget(agentIn, LiveResize.cannotAdd(view.template(w).getSpec(), containers, owner),
                            templateSize, agentIn && applied != null
                                    ? LivePods.of(view, w, owner, injection, containers, applied, nowMs)
                                    : null);
            sized.add(sized(target.index(), w, a, containers, held, applied, resize));
        }

        private Sized sized(int index, Workload w, TargetAllocation a, List<String> containers, Held live,
                Integer applied, LiveTarget resize) {
            TargetStatus before = previous.get(w.id());
            Instant since = before == null || before.getPendingSince() == null ? null
                    : Instant.parse(before.getPendingSince());
            boolean rolledOut = resize != null && resize.pods() != null
                    ? view.controllerDone(w) && resize.pods().pending().isEmpty()
                    : view.rolledOut(w, owner, injection, containers);
            // a rollout that is not progressing is looked for only where one is in progress; once reported, it stays
            // so between its pod's back-offs
            boolean reported = before != null && State.Stalled.name().equals(before.getState())
                    && Objects.equals(before.getAppliedPoolSize(), applied);
            String stalled = rolledOut || injection == null ? null
                    : view.stalled(w, owner, injection, containers, reported);
            return new Sized(w, a, index, containers, live, view.paused(w), stalled,
                    new RolloutDecider.TargetState(w.id(), a.poolSize(), applied, rolledOut, since, appDefault,
                            stalled != null, view.runningHolds(w, owner, injection, containers)),
                    budgetChange(owner, view.template(w).getMetadata(), budget), resize);
        }

        /** The target's outcome, or its write (never in a dry run). */
        Slot slot(Sized s, Verdict v) {
            LiveTarget lt = dryRun ? null : s.liveAgent();
            if (lt != null) {
                Integer applied = s.state().applied();
                if (applied != null && !lt.agentIn() && v.action() != Action.APPLY) {
                    // the agent adds no connection: it goes in at once at the size the pods hold, and a raise that
                    // waits keeps waiting from when it was first held
                    int size = v.step() != null ? v.step() : applied; // a step adds no connection either
                    v = new Verdict(v.id(), Action.APPLY, v.pendingSince(), "pool size " + size + " written "
                            + (size == applied ? "again " : "") + "with the live-resize agent (this once by a rollout; "
                            + "later sizes reach its running pods without)"
                            + (v.action() == Action.NONE ? "" : "; " + v.reason()));
                    return new Slot(null, write(s, v, size, false));
                }
                if (lt.pods() != null && v.action() != Action.APPLY && v.step() == null) {
                    publish(s, applied);
                    var late = lt.pods().overdue(nowMs, deadlineMs);
                    if (!late.isEmpty() && !Objects.equals(lt.templateSize(), applied)) {
                        return new Slot(null, write(s, new Verdict(v.id(), Action.APPLY, null, "pods "
                                + RolloutDecider.list(late.stream().map(p -> p.pod() + " (" + p.reason() + ")")
                                        .toList())
                                + " did not confirm size " + applied + " within " + deadlineMs / 1000
                                + " s: it is rolled out instead"), applied, true));
                    }
                    // also when a Ready pod's agent is to be said (LivePods.SETTLE_MS): no event marks that moment
                    long next = lt.pods().nextDeadline(deadlineMs);
                    liveDeadline = next == 0 ? liveDeadline : liveDeadline == 0 ? next : Math.min(liveDeadline, next);
                }
            }
            if (v.action() == Action.NONE && s.budgetChange() != null) {
                v = new Verdict(v.id(), Action.APPLY, null, "pool size " + s.allocation().poolSize() + " written again "
                        + s.budgetChange());
            }
            if (v.action() == Action.APPLY && !dryRun) {
                return new Slot(null, write(s, v, s.allocation().poolSize(), false));
            }
            if (v.step() != null && !dryRun) { // the part of a held raise its running pods hold already
                return new Slot(null, write(s, v, v.step(), false));
            }
            if ((v.action() == Action.HOLD_FOR_WINDOW || v.action() == Action.HOLD_FOR_ROLLOUTS) && !dryRun
                    && s.state().applied() == null && InjectionMode.of(injection) == InjectionMode.EnvFrom
                    && view.configMap(s.workload(), owner) == null) {
                // its template reads a ConfigMap that does not exist yet, so its new pods cannot start and its rollout
                // would wait for this raise forever: first values at no more than the app's default, which adds no
                // connection; the raise then waits as any raise does
                int first = Math.min(s.allocation().poolSize(), appDefault);
                return new Slot(null, write(s, new Verdict(v.id(), Action.APPLY, null, "first values at " + first
                        + " so that its pods can start (its template reads the operator's ConfigMap); the raise to "
                        + s.allocation().poolSize() + " " + v.reason()), first, false));
            }
            return new Slot(outcome(s, v), null);
        }

        private TargetOutcome outcome(Sized s, Verdict v) {
            Integer applied = s.state().applied();
            if (dryRun) {
                String what = v.action() == Action.NONE ? v.reason()
                        : "would " + v.action().name().toLowerCase().replace('_', ' ') + ": " + v.reason();
                return s.outcome(applied, State.DryRun, what, null, false);
            }
            return switch (v.action()) {
                case NONE -> s.state().rolledOut() ? s.outcome(applied, State.Applied, v.reason(), null, false)
                        : s.resize() != null && s.resize().pods() != null && !s.paused() && s.stalled() == null
                                ? s.outcome(applied, State.Rolling, "resizing live to " + applied + " without a "
                                        + "restart: " + s.resize().status().holding() + " of " + s.resize().pods()
                                                .pods()
                                        + " pods hold it"
                                        + (s.resize().pods().pending().isEmpty() ? "" : "; waiting for "
                                                + String.join("; ", s.resize().pods().describe())),
                                        null, false)
                                : s.paused() ? s.pausedOutcome(applied, "before its pods took pool size "
                                        + s.allocation().poolSize(), false)
                                        : s.stalled() != null ? s.outcome(applied, State.Stalled, StalledText.of(s,
                                                applied)
                                                + "; raises that wait for it keep waiting. Fix the workload (kubectl rollout status/undo "
                                                + "deployment/" + s.workload().name() + ") or the policy", null, false)
                                                : s.outcome(applied, State.Rolling, "rolling out", null, false);
                // a stall stays reported whatever else the target waits for
                case HOLD_FOR_WINDOW, HOLD_FOR_ROLLOUTS -> s.stalled() != null
                        ? s.outcome(applied, State.Stalled, StalledText.of(s, applied) + ". Its " + v.reason(),
                                v.pendingSince(), false)
                        : s.outcome(applied, State.Pending, v.reason(), v.pendingSince(), false);
                case APPLY -> throw new IllegalStateException("a write is not an outcome: " + v);
            };
        }

        /**
         * The target's write of {@code size}: its ConfigMap (in the ConfigMap modes), then the workload's template. In
         * resize mode Live, once the template carries the agent, the template keeps the size its pods start with and
         * the size goes to the workload and its running pods (unless {@code rollout}: a pod did not confirm in time).
         */
        private Decision.Write write(Sized s, Verdict v, int size, boolean rollout) {
            Workload w = s.workload();
            List<HasMetadata> objects = new ArrayList<>();
            if (Injection.viaConfigMap(injection)) {
                objects.add(Injection.configMap(w.kind(), w.namespace(), w.name(), owner, injection, size));
            }
            LiveTarget lt = s.liveAgent();
            boolean liveWrite = lt != null && lt.agentIn() && !rollout && lt.templateSize() != null;
            objects.add(Injection.workloadPatch(w.kind(), w.namespace(), w.name(), owner, injection, s.containers(),
                    liveWrite ? lt.templateSize() : size, budget, s.allocation().poolsPerPod(),
                    lt == null ? null : new Injection.Live(agentImage, view.template(w).getSpec(), size)));
            if (liveWrite) {
                publish(s, size);
            }
            Integer before = s.state().applied();
            TargetOutcome writing = s.paused()
                    ? s.pausedOutcome(before, "while pool size " + size + " is being written", false)
                    : s.outcome(before, State.Rolling,
                            (liveWrite ? "publishing pool size " + size + " to its running pods"
                                    : "writing pool size " + size) + ": " + v.reason(),
                            v.pendingSince(), false);
            // a step of a held raise keeps the time it was first held: the rest follows when the window is over
            TargetOutcome written = s.paused()
                    ? s.pausedOutcome(size, "and pool size " + size + " written (" + v.reason() + ")", true)
                    : s.outcome(size, State.Rolling, v.reason(), v.pendingSince(), true);
            return new Decision.Write(owner.fieldManager(), List.copyOf(objects), writing, written, before);
        }

        /** Adds to {@code changes} the lower size the slot rolls out over larger pools, if it does ({@link TransitionNotes}). */
        void change(Sized s, Slot slot, List<TransitionPeaks.Change> changes) {
            LiveTarget lt = s.liveAgent();
            if (dryRun || s.paused() || s.stalled() != null
                    || lt != null && lt.agentIn() && lt.templateSize() != null) {
                return; // nothing rolls out, or what does is said otherwise; a live size reaches the pods in place
            }
            Workload w = s.workload();
            var c = TransitionNotes.change(w, slot, s.state().runningHolds(), s.live(), () -> TransitionNotes.live(
                    injection, w.kind(), live,
                    LiveResize.cannotAdd(view.template(w).getSpec(), s.containers(), owner)));
            if (c != null) {
                changes.add(c);
            }
        }

        /** Publishes {@code size} to every running pod of the target that does not carry it yet. */
        private void publish(Sized s, Integer size) {
            if (size == null) {
                return;
            }
            for (var pod : view.podsOf(s.workload())) {
                if (pod.getMetadata().getDeletionTimestamp() == null
                        && !Objects.equals(LiveResize.published(pod.getMetadata(), owner), size)) {
                    podWrites.add(new Decision.Write(owner.fieldManager(), List.of(LiveResize.podPatch(pod, owner,
                            size)), null, null, null));
                }
            }
        }
    }
}
