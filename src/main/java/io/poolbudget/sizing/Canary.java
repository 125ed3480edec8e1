package io.poolbudget.sizing;

import java.util.List;

/**
 * An Argo Rollout's canary strategy. Without traffic routing Argo scales the canary and stable ReplicaSets within
 * {@code maxSurge}/{@code maxUnavailable} of {@code spec.replicas}, as a Deployment does. With traffic routing the
 * stable ReplicaSet stays at every replica while the canary grows to each step's weight, and at promotion the canary
 * runs every replica beside the stable one, which keeps its pods {@code scaleDownDelaySeconds} longer: twice the
 * replicas (more where a {@code setCanaryScale} step names more). With {@code dynamicStableScale} the stable one
 * shrinks as traffic leaves it, but only after the canary of the next step has started: one step's pods more.
 *
 * @param weights every {@code setWeight} of the steps, in order (promotion to 100 follows the last)
 * @param canaryScaleReplicas the most replicas a {@code setCanaryScale} step names (0: none)
 * @param canaryScaleWeight the largest weight a {@code setCanaryScale} step names (0: none)
 */
public record Canary(IntOrPercent maxSurge, IntOrPercent maxUnavailable, boolean trafficRouted,
        boolean dynamicStableScale, List<Integer> weights, long canaryScaleReplicas, int canaryScaleWeight,
        int scaleDownDelaySeconds) implements Rollout {

    public Canary {
        weights = List.copyOf(weights);
    }

    private Rollout.RollingUpdate basic() {
        return new Rollout.RollingUpdate(maxSurge, maxUnavailable);
    }

    @Override
    public long surge(long replicas) {
        if (!trafficRouted) {
            return basic().surge(replicas);
        }
        long scaled = Math.max(canaryScaleReplicas, pods(replicas, canaryScaleWeight));
        return Math.max(dynamicStableScale ? largestStep(replicas) : replicas, scaled);
    }

    @Override
    public long defaultTerminating(long replicas) {
        if (!trafficRouted) {
            return basic().defaultTerminating(replicas);
        }
        // the stable pods a dynamic step removes shut down while the next step's canary starts; without it the old
        // stable ReplicaSet's pods go only once the new one runs every replica, within the surge counted above
        return dynamicStableScale ? Math.min(replicas, largestStep(replicas)) : 0;
    }

    /** Canary pods at one weight plus the stable pods still at the weight before, less the replicas, at its most. */
    private long largestStep(long replicas) {
        long most = 0;
        int before = 0;
        for (int w : java.util.stream.Stream.concat(weights.stream(), java.util.stream.Stream.of(100)).toList()) {
            int now = Math.max(0, Math.min(100, w));
            most = Math.max(most, pods(replicas, now) + pods(replicas, 100 - Math.min(before, now)) - replicas);
            before = now;
        }
        return Math.max(0, most);
    }

    /** Argo's trafficWeightToReplicas: rounded up. */
    private static long pods(long replicas, int weight) {
        return weight <= 0 ? 0 : Limits.saturatedMultiply(replicas, weight) / 100
                + (Limits.saturatedMultiply(replicas, weight) % 100 == 0 ? 0 : 1);
    }

    @Override
    public String terminatingReason() {
        return !trafficRouted ? Rollout.super.terminatingReason()
                : dynamicStableScale ? "the stable pods of one step shutting down as the next step's canary starts"
                        : "the old stable pods shut down once the new ones run every replica, within the surge";
    }

    @Override
    public String describe(long replicas) {
        if (!trafficRouted) {
            return "Argo Rollouts canary without traffic routing, maxSurge " + maxSurge + " (" + surge(replicas)
                    + (surge(replicas) == 1 ? " pod" : " pods") + ", rounded up), maxUnavailable " + maxUnavailable
                    + ": Argo keeps canary and stable pods "
                    + "within them";
        }
        if (dynamicStableScale) {
            return "Argo Rollouts canary with traffic routing and dynamicStableScale: the stable pods shrink only "
                    + "after the canary of a step has started, " + largestStep(replicas) + " pods at its largest step"
                    + " (weights " + weights + " then 100)";
        }
        return "Argo Rollouts canary with traffic routing: the stable ReplicaSet keeps every replica while the canary "
                + "grows, and at promotion the canary runs every replica beside it for scaleDownDelaySeconds "
                + scaleDownDelaySeconds + (surge(replicas) > replicas ? " (a setCanaryScale step names "
                        + surge(replicas) + ")" : "")
                + "; dynamicStableScale would shrink the stable pods as traffic"
                + " leaves them";
    }
}
