package io.poolbudget.sizing;

/**
 * An Argo Rollout's blue-green strategy: the preview ReplicaSet (at {@code previewReplicaCount}, null for every
 * replica) runs beside the active one, is scaled to every replica before the switch, and the old active one keeps its
 * pods {@code scaleDownDelaySeconds} after it. At the switch both run every replica: as many pods again.
 */
public record BlueGreen(Integer previewReplicaCount, int scaleDownDelaySeconds) implements Rollout {

    @Override
    public long surge(long replicas) {
        return replicas;
    }

    /** The old active pods go once the new ones run every replica: within the surge counted above. */
    @Override
    public long defaultTerminating(long replicas) {
        return 0;
    }

    @Override
    public String terminatingReason() {
        return "the old active pods shut down once the new ones run every replica, within the surge";
    }

    @Override
    public String describe(long replicas) {
        return "Argo Rollouts blue-green: preview " + (previewReplicaCount == null ? "at every replica"
                : "at previewReplicaCount " + previewReplicaCount + ", scaled to every replica before the switch")
                + ", and the old active pods kept scaleDownDelaySeconds " + scaleDownDelaySeconds + " after it";
    }
}
