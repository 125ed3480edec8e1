package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.poolbudget.api.v1alpha1.InjectionMode;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.decide.Decision.Slot;
import io.poolbudget.decide.RolloutDecider.Action;
import io.poolbudget.decide.RolloutDecider.Verdict;
import io.poolbudget.decide.TargetOutcome.State;
import io.poolbudget.planning.Workload;
import io.poolbudget.sizing.TransitionPeaks;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@link PolicyPass}'s last step: each target's slot from the rollout rules' verdict, its outcome or its write
 * (never in a dry run), and in resize mode Live the pod writes that publish sizes to running pods.
 */
final class PassWriter {
    final ClusterView view;
    final InjectionSpec injection;
    final boolean dryRun;
    final int appDefault;
    final Owner owner;
    final String budget;
    /** Resize mode Live: the operator's image (the agent's), the pod writes that publish sizes. */
    final String agentImage;
    final boolean live;
    final long nowMs;
    final long deadlineMs;
    final List<Decision.Write> podWrites = new ArrayList<>();
    /** When the first live-mode pod's deadline ends (epoch ms), 0 when none is waited for. */
    long liveDeadline;

    /** Writes for the targets {@code read} read. */
    PassWriter(PassReader read) {
        this.view = read.view;
        this.injection = read.injection;
        this.dryRun = read.dryRun;
        this.appDefault = read.appDefault;
        this.owner = read.owner;
        this.budget = read.budget;
        this.agentImage = read.agentImage;
        this.live = read.live;
        this.nowMs = read.nowMs;
        this.deadlineMs = 1000L * (injection == null || injection.getLiveDeadlineSeconds() == null ? 60
                : injection.getLiveDeadlineSeconds());
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
