package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.ResizeMode;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.decide.Decision.Slot;
import io.poolbudget.decide.TargetOutcome.State;
import io.poolbudget.planning.InjectionRules;
import io.poolbudget.planning.PolicyPlanner;
import io.poolbudget.planning.Workload;
import io.poolbudget.sizing.Allocation;
import io.poolbudget.sizing.TransitionPeaks;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Where lowering a pool by a rollout may take the policy past its budget while it rolls (old pods keep their larger
 * pools until they exit, beside the new pods), said on the target, by the operator from its pods and by {@code plan}
 * from the manifests' sizes, in the words of {@link TransitionPeaks}. Only pods the operator sized count as old pods
 * here: pods at the app's default are what an adoption reports.
 */
public final class TransitionNotes {
    private TransitionNotes() {}

    /**
     * What resize mode Live would do for a target of {@code kind}: {@code effective}, the policy resizes live (Live, and
     * the operator can add its agent); {@code cannotAdd}, why the agent cannot go into its pods (null where it can).
     */
    public static TransitionPeaks.Live live(InjectionSpec spec, WorkloadKind kind, boolean effective,
            String cannotAdd) {
        if (spec == null || !WorkloadShapes.resizesLive(kind) || cannotAdd != null) {
            return TransitionPeaks.Live.NONE;
        }
        if (ResizeMode.of(spec) == ResizeMode.Live) {
            return effective ? TransitionPeaks.Live.AGENT_COMING : TransitionPeaks.Live.NONE;
        }
        return InjectionRules.liveRefused(spec) == null ? TransitionPeaks.Live.OFFER : TransitionPeaks.Live.NONE;
    }

    /**
     * The rollout a target's slot writes or continues over running pods that hold a larger pool than it rolls in
     * ({@code runningHolds}: the largest one of them holds); null where there is none, or where its pods were not sized
     * by the operator ({@code held} counts some at the app's default).
     */
    static TransitionPeaks.Change change(Workload w, Slot slot, int runningHolds, TargetOutcome.Held held,
            Supplier<TransitionPeaks.Live> live) {
        Integer size;
        Integer before;
        if (slot.write() != null) {
            size = slot.write().written().applied();
            before = slot.write().appliedBefore();
        } else {
            size = slot.outcome().state() == State.Rolling ? slot.outcome().applied() : null;
            before = size;
        }
        if (size == null || before == null || held == null || held.atDefault() > 0 || runningHolds <= size) {
            return null;
        }
        return new TransitionPeaks.Change(w.id(), runningHolds, size, live.get());
    }

    /** Each slot's target that may take the policy past its budget while it rolls, said on it (status and Event). */
    static void annotate(List<Slot> slots, List<TransitionPeaks.Change> changes, Allocation allocation) {
        if (changes.isEmpty()) {
            return;
        }
        Map<String, Long> holds = new HashMap<>();
        for (Slot s : slots) {
            TargetOutcome o = s.write() == null ? s.outcome() : s.write().written();
            if (o.held() != null && o.held().anyNumber()) {
                return; // its pods may open any number: no figure to give for the policy's transition
            }
            if (o.workload() != null && o.live() != null) {
                holds.put(o.workload().id(), o.live());
            }
        }
        var notes = TransitionPeaks.of(allocation, changes, holds);
        for (int i = 0; i < slots.size() && !notes.isEmpty(); i++) {
            Slot s = slots.get(i);
            TargetOutcome o = s.write() == null ? s.outcome() : s.write().written();
            var note = o.workload() == null ? null : notes.get(o.workload().id());
            if (note != null) {
                slots.set(i, s.write() == null ? new Slot(o.withTransition(note.text()), null)
                        : new Slot(null, new Decision.Write(s.write().fieldManager(), s.write().objects(),
                                s.write().writing().withTransition(note.text()), o.withTransition(note.text()),
                                s.write().appliedBefore())));
            }
        }
    }

    /**
     * {@code plan}: the notes for a policy whose workloads' templates carry the size their pods run with (the
     * operator's annotation, or the variable's value), each target's pods counted at it (at the app's default where it
     * carries none).
     */
    public static Map<String, TransitionPeaks.Note> fromManifests(PoolPolicy policy, PolicyPlanner.PolicyPlan plan,
            Function<Workload, PodTemplateSpec> templates) {
        InjectionSpec spec = policy.getSpec().getInjection();
        if (spec == null) {
            return Map.of();
        }
        Owner owner = Owner.of(policy);
        List<TransitionPeaks.Change> changes = new ArrayList<>();
        Map<String, Long> holds = new HashMap<>();
        for (int i = 0; i < plan.targets().size(); i++) {
            Workload w = plan.targets().get(i).workload();
            var a = plan.allocation().targets().get(i);
            PodTemplateSpec template = templates.apply(w);
            if (template == null || template.getSpec() == null || template.getSpec().getContainers() == null) {
                continue;
            }
            List<String> containers;
            try {
                containers = InjectionReads.containers(spec, template.getSpec());
            } catch (IllegalArgumentException e) {
                continue; // plan's own warning says it
            }
            Integer running = InjectionReads.heldSize(owner, spec, template.getMetadata(), template.getSpec(),
                    containers);
            int size = Objects.requireNonNullElse(running, Injection.appDefault(spec));
            if (io.poolbudget.sizing.Limits.noPoolLimit(size)) {
                return Map.of(); // its pods may open any number: no figure to give for the policy's transition
            }
            holds.put(w.id(), (long) w.replicas() * size * a.poolsPerPod());
            boolean agentIn = ResizeMode.of(spec) == ResizeMode.Live
                    && LiveResize.agentIn(template.getSpec(), containers, owner);
            if (running != null && running > a.poolSize() && !agentIn) {
                changes.add(new TransitionPeaks.Change(w.id(), running, a.poolSize(), live(spec, w.kind(), true,
                        LiveResize.cannotAdd(template.getSpec(), containers, owner))));
            }
        }
        return TransitionPeaks.of(plan.allocation(), changes, holds);
    }
}
