package io.poolbudget.sizing;

/**
 * An Argo Rollout's blue-green strategy: the preview ReplicaSet (at {@code previewReplicaCount}, null for every
 * replica) runs beside the active one, is scaled to every replica before the switch, and the old active one keeps its
 * pods {@code scaleDownDelaySeconds} after it. At the switch both run every replica: as many pods again; and a preview superseded by an update
 * during the rollout is kept as long beside the new one.
 */
public record BlueGreen(Integer previewReplicaCount, int scaleDownDelaySeconds) implements Rollout {

    @Override
    public long surge(long replicas) {
        return replicas;
    }

    /**
     * An update during a rollout leaves the superseded preview its pods for scaleDownDelaySeconds beside the active
     * pods and the new preview: every replica more, counted with the pods shutting down.
     */
    @Override
    public long defaultTerminating(long replicas) {
        return replicas;
    }

    @Override
    public String terminatingReason() {
        return "a preview superseded by an update during its rollout, kept scaleDownDelaySeconds beside the active "
                + "pods and the new preview, which terminatingPods lowers where updates never overlap a rollout";
    }

    @Override
    public String describe(long replicas) {
        return "Argo Rollouts blue-green: preview " + (previewReplicaCount == null ? "at every replica"
                : "at previewReplicaCount " + previewReplicaCount + ", scaled to every replica before the switch")
                + ", and the old active pods kept scaleDownDelaySeconds " + scaleDownDelaySeconds + " after it";
    }
}
