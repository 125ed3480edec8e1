package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.TargetStatus;
import io.poolbudget.decide.Decision.Slot;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.poolbudget.decide.TargetOutcome.Held;
import io.poolbudget.decide.TargetOutcome.State;
import io.poolbudget.planning.PolicyPlanner;
import io.poolbudget.planning.SharedBudgets;
import io.poolbudget.planning.Workload;
import io.poolbudget.sizing.Limits;
import io.poolbudget.sizing.TargetAllocation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link PolicyPass}'s first step: what one pass knows of its policy, read from the view, and each of its targets
 * read into what the rollout rules see of it ({@link Sized}), or, where it cannot be written, its problem.
 */
final class PassReader {
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
    /** Resize mode Live: the operator's image (the agent's). */
    final String agentImage;
    final boolean live;
    final long nowMs;

    PassReader(PoolPolicy policy, ClusterView view, Collection<PoolPolicy> neighbours, SharedBudgets shared,
            String agentImage, Instant now) {
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
    }

    /** A target that cannot be written goes to {@code slots} with its problem; one that can, to {@code sized}. */
    void read(PolicyPlanner.ResolvedTarget target, TargetAllocation a, List<Slot> slots, List<Sized> sized) {
        Workload w = target.workload();
        List<String> containers = List.of();
        String problem = null;
        State state = State.Conflict;
        try {
            containers = injection == null ? List.of()
                    : InjectionReads.containers(injection, view.template(w).getSpec());
        } catch (IllegalArgumentException e) {
            problem = e.getMessage();
            state = State.Invalid;
        }
        // each pod at its own pools per pod, as at its own size: an older template's pods may fork fewer workers
        Held held = Held.of(view.live(w, owner, injection, containers,
                PoolsPerPod.of(injection, target.spec(), a.poolsPerPod())));
        Integer applied = injection == null || problem != null ? null
                : InjectionReads.appliedSize(owner, injection, view.template(w), containers, view.configMap(w, owner));
        if (problem == null && injection != null) {
            problem = Claims.conflict(Claims.writes(injection, containers), claimedByOthers.get(w.id()));
        }
        if (problem == null && injection != null) {
            problem = InjectionReads.foreignValueFrom(owner, w.kind(), w.name(), injection, view.template(w).getSpec(),
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

    /**
     * Why a workload this policy sized must be written again at the same size: its pods record another DatabaseBudget
     * than the one the policy draws on now (so they would count against the old one for as long as they live, and not
     * against the new one); null when they record the right one, or before the first write.
     */
    static String budgetChange(Owner owner, ObjectMeta template, String budget) {
        String carried = Owner.annotation(template, owner.budgetAnnotation());
        if (!owner.sized(template) || Objects.equals(carried, budget)) {
            return null;
        }
        return carried == null ? "to record DatabaseBudget " + budget + " on its pods"
                : budget == null ? "without DatabaseBudget " + carried + ": its pods count against it until replaced"
                        : "to record DatabaseBudget " + budget + " instead of " + carried + " on its pods";
    }
}
