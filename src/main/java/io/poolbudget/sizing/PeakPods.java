package io.poolbudget.sizing;

/**
 * The most pods of one target that can hold connections at once:
 * basis replicas + rollout surge + old pods still terminating.
 */
public record PeakPods(int basisReplicas, Basis basis, int surge, int terminating, String explanation) {

    public int total() { return basisReplicas + surge + terminating; }

    public static PeakPods of(TargetInput t) {
        Basis basis = t.basis() != null ? t.basis() : (t.hpaMaxReplicas() != null ? Basis.HPA_MAX : Basis.CURRENT);
        int planned;
        String why;
        switch (basis) {
            case HPA_MAX -> {
                if (t.hpaMaxReplicas() == null) {
                    planned = t.replicas();
                    why = "basis HpaMax but no HPA scales it: current replicas " + t.replicas();
                } else {
                    planned = t.hpaMaxReplicas();
                    why = "HPA maxReplicas " + t.hpaMaxReplicas();
                }
            }
            case FIXED -> {
                planned = t.fixedReplicas();
                why = "fixedReplicas " + t.fixedReplicas();
            }
            default -> {
                planned = t.replicas();
                why = "current replicas " + t.replicas();
            }
        }
        // Pods that exist now hold connections now, whatever the plan says.
        if (t.replicas() > planned) {
            why += ", but " + t.replicas() + " replicas run now: planning for " + t.replicas();
            planned = t.replicas();
        }
        int surge = t.rollout().surge(planned);
        int terminating = t.terminatingPods() != null ? Math.min(t.terminatingPods(), planned)
                : t.rollout().defaultTerminating(planned);
        String terminatingWhy = t.terminatingPods() != null ? "terminatingPods " + t.terminatingPods()
                + (t.terminatingPods() > planned ? " (at most the " + planned + " old pods)" : "")
                : "one rollout step of old pods still terminating";
        int total = planned + surge + terminating;
        String text = "peak pods " + total + " = " + planned + " (" + why + ") + " + surge + " surge + " + terminating
                + " terminating (" + terminatingWhy + "); " + t.rollout().describe(planned);
        return new PeakPods(planned, basis, surge, terminating, text);
    }
}
