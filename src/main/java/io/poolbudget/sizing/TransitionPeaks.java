package io.poolbudget.sizing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a policy's targets may hold at once while lower pool sizes roll out over pods that hold larger ones, said where
 * that is more than the budget: the one wording of it, for the operator's status and Events and for {@code plan}. A
 * target whose pool is lowered by a rollout counts at its {@link Transition}'s peak; every other target at what its
 * pods hold now (a raise waits until the shrinks have rolled out, so its pods keep what they hold meanwhile). A
 * prediction, of what may be held: the database's own count shows what is.
 */
public final class TransitionPeaks {
    private TransitionPeaks() {}

    /** What resize mode Live would do for the target's lower sizes. */
    public enum Live {
        /** It could take them in place, and the policy does not resize live. */
        OFFER,
        /** The policy resizes live, and this rollout adds the agent: later sizes need none. */
        AGENT_COMING,
        /** It cannot help (Argo Rollouts, a pool read from a connection string, an agent that cannot be added). */
        NONE
    }

    /** A target whose pods, holding {@code oldSize} now, are to roll out with {@code newSize}. */
    public record Change(String id, int oldSize, int newSize, Live live) {}

    /** A change said: its transition, the policy's peak with it (and without overlap), and the words. */
    public record Note(String id, Transition transition, long peak, long noOverlap, long budget, String text) {}

    /**
     * The notes, by target id, of the changes that may take the policy past its budget while they roll out (none
     * where it stays within); {@code holds}: what each target's pods hold now, by id (0 where absent).
     */
    public static Map<String, Note> of(Allocation a, List<Change> changes, Map<String, Long> holds) {
        Map<String, Change> lowered = new HashMap<>();
        changes.stream().filter(c -> c.oldSize() > c.newSize()).forEach(c -> lowered.put(c.id(), c));
        Map<String, Transition> transitions = new LinkedHashMap<>();
        long others = 0;
        for (TargetAllocation t : a.targets()) {
            Change c = lowered.get(t.id());
            if (c != null) {
                transitions.put(t.id(), Transition.of(t.peak().target(), c.oldSize(), c.newSize()));
            } else {
                others = Limits.saturatedAdd(others, holds.getOrDefault(t.id(), 0L));
            }
        }
        long peak = others;
        long noOverlap = others;
        for (Transition t : transitions.values()) {
            peak = Limits.saturatedAdd(peak, t.peak());
            noOverlap = Limits.saturatedAdd(noOverlap, t.noOverlap());
        }
        long budget = a.budget().connections();
        Map<String, Note> notes = new LinkedHashMap<>();
        if (peak <= budget) {
            return notes;
        }
        for (Transition t : transitions.values()) {
            if (t.peak() > t.now()) {
                String id = t.target().id();
                var alternative = withoutSurge(a, t, peak - t.peak());
                notes.put(id, new Note(id, t, peak, noOverlap, budget, TransitionWords.text(t, peak, noOverlap,
                        peak - t.peak(), budget, lowered.get(id).live(), alternative)));
            }
        }
        return notes;
    }

    /**
     * The same change with maxSurge 0 on its target (its pool re-planned so, for policies of up to
     * {@link StrategyCost#MOST_TARGETS} targets): the policy's peak and its peak without overlap; null where no maxSurge
     * sets its surge, or it has none.
     */
    static Alternative withoutSurge(Allocation a, Transition t, long rest) {
        TargetInput target = t.target();
        Rollout noSurge = target.rollout().withoutSurge(t.replicas());
        if (noSurge == null || target.rollout().surge(t.replicas()) == 0) {
            return null;
        }
        TargetInput alt = target.toBuilder().rollout(noSurge).build();
        int size = t.newSize();
        if (a.targets().size() <= StrategyCost.MOST_TARGETS && a.verdict() == Allocation.Verdict.FITS) {
            List<TargetInput> inputs = new ArrayList<>();
            int index = 0;
            for (int i = 0; i < a.targets().size(); i++) {
                TargetInput in = a.targets().get(i).peak().target();
                index = in.id().equals(target.id()) ? i : index;
                inputs.add(in.id().equals(target.id()) ? alt : in);
            }
            size = PoolSizer.allocateOnly(a.budget(), inputs).get(index).poolSize();
        }
        IntOrPercent unavailable = noSurge instanceof Canary c ? c.maxUnavailable()
                : ((Rollout.RollingUpdate) noSurge).maxUnavailable();
        if (size >= t.oldSize()) { // its pool would not be lowered: no rollout
            long now = Limits.saturatedAdd(rest, t.now());
            return new Alternative(unavailable, size, now, now);
        }
        Transition then = Transition.of(alt, t.oldSize(), size);
        return new Alternative(unavailable, size, Limits.saturatedAdd(rest, then.peak()),
                Limits.saturatedAdd(rest, then.noOverlap()));
    }

    /** With maxSurge 0 (and {@code maxUnavailable}): the target's pool, the policy's peak and its peak without overlap. */
    record Alternative(IntOrPercent maxUnavailable, int size, long peak, long noOverlap) {}
}
