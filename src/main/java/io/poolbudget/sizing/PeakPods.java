package io.poolbudget.sizing;

/**
 * The most pods of one target that can hold connections at once:
 * basis replicas + rollout surge + pods still terminating (old pods of a rollout, or pods a drain evicted, whichever
 * is more). Counted in 64 bits: an HPA may name
 * 2³¹ − 1 replicas, and a percentage surge on top of that does not fit an int. The explanation is
 * built on demand.
 */
public record PeakPods(TargetInput target, Basis basis, long basisReplicas, long surge, long terminating) {

    public long total() {
        return basisReplicas + surge + terminating;
    }

    /** Connections one unit of pool size costs: peak pods × pools per pod (saturating, never negative). */
    public long cost() {
        return Limits.saturatedMultiply(total(), target.poolsPerPod());
    }

    public static PeakPods of(TargetInput t) {
        Basis basis = t.basis() != null ? t.basis() : (t.hpaMaxReplicas() != null ? Basis.HPA_MAX : Basis.CURRENT);
        // Pods that exist now hold connections now, whatever the plan says.
        long planned = Math.max(chosen(t, basis), t.replicas());
        return new PeakPods(t, basis, planned, t.rollout().surge(planned), terminating(t, planned));
    }

    /**
     * Pods that may be terminating at once, holding their pools, beside {@code replicas} running ones: those of a
     * rollout ({@link #rolloutTerminating}) or those a drain may evict at once ({@link #drained}), whichever is more.
     * A drain's evicted pods terminate beside their replacements, new pods that run as the basis replicas do.
     */
    static long terminating(TargetInput t, long replicas) {
        return Math.max(rolloutTerminating(t, replicas), drained(t, replicas));
    }

    /**
     * Pods a drain may evict at once, of {@code replicas}: what the most restrictive PodDisruptionBudget selecting them
     * allows (the Eviction API refuses an eviction that any of them would not allow), or the target's disruptionPods
     * where that is more; 0 with neither. A budget counts Ready pods, so once the replacements of one wave are Ready the
     * drain evicts the next: where one pod's shutdown spans several steps (its preStop against a new pod's time to
     * Ready, as for a rollout), as many waves terminate at once. Never more than the replicas.
     */
    public static long drained(TargetInput t, long replicas) {
        return Math.min(Limits.saturatedMultiply(wave(t, replicas), waves(t)), replicas);
    }

    /** The pods one wave of a drain evicts at once (see {@link #drained}), before waves overlap. */
    private static long wave(TargetInput t, long replicas) {
        if (!replacedAtOnce(t)) {
            return 0;
        }
        long budget = t.disruptions().stream().mapToLong(d -> d.pods(replicas)).min().orElse(0);
        long own = t.disruptionPods() == null ? 0 : t.disruptionPods();
        return Math.min(Math.max(budget, own), replicas);
    }

    /** How many waves of a drain may be terminating at once: the steps one pod's shutdown spans, at least 1. */
    private static long waves(TargetInput t) {
        return t.shutdownSteps() == null || t.shutdownSteps() <= 1 ? 1 : t.shutdownSteps();
    }

    /**
     * Whether an evicted pod's replacement starts while it terminates: a ReplicaSet's (a Deployment's, an Argo
     * Rollout's) does; a StatefulSet's keeps the pod's name and starts once it is gone, and a Job's pods are not
     * replaced by a drain's count.
     */
    private static boolean replacedAtOnce(TargetInput t) {
        return !(t.rollout() instanceof Rollout.Ordered) && !(t.rollout() instanceof Batch);
    }

    /**
     * Advice where no PodDisruptionBudget selects the target's pods and it does not set disruptionPods: a drain may
     * evict every pod of a node at once, more than the plan counts terminating; null where that cannot add a pod (a
     * budget or the field bounds it, its pods are replaced only once gone, or the plan counts every pod terminating).
     */
    public String drainAdvice() {
        if (!target.disruptions().isEmpty() || target.disruptionPods() != null || !replacedAtOnce(target)
                || terminating >= basisReplicas) {
            return null;
        }
        return target.id() + ": no PodDisruptionBudget selects its pods, so a drain may evict every pod of a node at "
                + "once, and they terminate beside their replacements; the plan counts " + terminating
                + " terminating. A PodDisruptionBudget (maxUnavailable) bounds that and is counted, or set "
                + target.field() + ".disruptionPods to the pods one node may hold";
    }

    /** The PodDisruptionBudget that bounds a drain ({@link #drained}); null without one. */
    private Disruption bounding() {
        return target.disruptions().stream()
                .min(java.util.Comparator.comparingLong((Disruption d) -> d.pods(basisReplicas))).orElse(null);
    }

    /**
     * Old pods of a rollout that may be terminating at once beside {@code replicas} running ones:
     * terminatingPods where given, else the larger of one rollout step, what was seen and what the shutdown spans, never
     * more than the old pods there are.
     */
    static long rolloutTerminating(TargetInput t, long replicas) {
        return t.terminatingPods() != null ? Math.min(t.terminatingPods(), replicas)
                : Math.max(Math.max(t.rollout().defaultTerminating(replicas), seen(t, replicas)),
                        spanned(t, replicas));
    }

    public String explanation() {
        String why = switch (basis) {
            case HPA_MAX -> target.hpaMaxReplicas() == null
                    ? "basis HpaMax but no HPA scales it: current replicas " + target.replicas()
                    : (target.scaler() == null ? "HPA" : target.scaler()) + " maxReplicas " + target.hpaMaxReplicas();
            case FIXED -> "fixedReplicas " + target.fixedReplicas();
            case CURRENT -> target.rollout().counted() + " " + target.replicas();
        };
        if (target.replicas() > chosen(target, basis)) {
            why += ", but " + target.replicas() + " replicas run now: planning for " + target.replicas();
        }
        long step = target.rollout().defaultTerminating(basisReplicas);
        String terminatingWhy = terminating > rolloutTerminating(target, basisReplicas) ? drainWhy()
                : target.terminatingPods() != null ? "terminatingPods " + target.terminatingPods()
                        + (target.terminatingPods() > basisReplicas ? " (at most the " + basisReplicas + " old pods)"
                                : "")
                        : terminating > step && terminating == seen(target, basisReplicas) ? target.seenTerminating()
                                + " of its pods were seen terminating at once, more than one rollout step (" + step
                                + "): their "
                                + "shutdown outlasts a step"
                                + (target.seenTerminating() > basisReplicas ? " (at most the "
                                        + basisReplicas + " old pods)" : "")
                                : terminating > step ? "old pods of " + target.shutdownSteps() + " rollout steps of "
                                        + step
                                        + " may terminate at once: its preStop outlasts a step (a new pod's time to Ready)"
                                        + (terminating == basisReplicas
                                                ? " (at most the " + basisReplicas + " old pods)" : "")
                                        : target.rollout().terminatingReason();
        return "peak pods " + total() + " = " + basisReplicas + " (" + why + ") + " + surge + " surge + " + terminating
                + " terminating (" + terminatingWhy + "); " + target.rollout().describe(basisReplicas);
    }

    /** Why a drain's evicted pods are the terminating ones counted: the budget, or the target's own field, that says. */
    private String drainWhy() {
        Disruption pdb = bounding();
        long wave = wave(target, basisReplicas);
        String why = pdb != null && pdb.pods(basisReplicas) == wave ? pdb.describe()
                : target.field() + ".disruptionPods " + target.disruptionPods();
        String waves = terminating == wave ? "" : ", and its pods' shutdown spans " + waves(target)
                + " steps (its preStop against a new pod's time to Ready), so that many waves of " + wave
                + " may terminate at once" + (terminating == basisReplicas ? " (at most the " + basisReplicas
                        + " pods)" : "");
        return "a drain may evict " + wave + " at once: " + why + waves
                + "; they terminate beside their replacements";
    }

    /**
     * Old pods of more than one step terminate at once when their shutdown (preStop, drain) outlasts a
     * step of the rollout; what was seen is planned for, up to the old pods there are.
     */
    private static long seen(TargetInput t, long planned) {
        return t.seenTerminating() == null ? 0 : Math.min(t.seenTerminating(), planned);
    }

    /** Old pods of as many steps as one pod's shutdown spans (preStop against time to Ready), up to the old pods. */
    private static long spanned(TargetInput t, long planned) {
        if (t.shutdownSteps() == null || t.shutdownSteps() <= 1) {
            return 0;
        }
        return Math.min(Limits.saturatedMultiply(t.rollout().defaultTerminating(planned), t.shutdownSteps()), planned);
    }

    /** The replica count the basis names, before the pods running now are taken into account. */
    private static long chosen(TargetInput t, Basis basis) {
        return switch (basis) {
            case HPA_MAX -> t.hpaMaxReplicas() == null ? t.replicas() : t.hpaMaxReplicas();
            case FIXED -> t.fixedReplicas();
            case CURRENT -> t.replicas();
        };
    }
}
