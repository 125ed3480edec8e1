package io.poolbudget.sizing;

import java.util.List;

/**
 * An Argo Rollout's canary strategy. Without traffic routing Argo scales the canary and stable ReplicaSets within
 * {@code maxSurge}/{@code maxUnavailable} of {@code spec.replicas}, as a Deployment does. With traffic routing the
 * stable ReplicaSet stays at every replica while the canary grows to each step's weight, and at promotion the canary
 * runs every replica beside it, which keeps its pods {@code scaleDownDelaySeconds} longer: twice the replicas (more
 * where a {@code setCanaryScale} step names more). With {@code dynamicStableScale} the stable one shrinks as traffic
 * leaves it, but only after the canary of the next step has started: one step's pods more. A canary superseded by an
 * update during its rollout (the operator's own size change among them) is scaled down at once, its pods, up to every
 * replica, shutting down beside the new canary: counted as terminating. Replica counts follow Argo's
 * {@code trafficWeightToReplicas} (rounded up, of {@code maxTrafficWeight}) and {@code minPodsPerReplicaSet}.
 *
 * @param weights every {@code setWeight} of the steps, in order (promotion to {@code maxWeight} follows the last)
 * @param canaryScaleReplicas the most replicas a {@code setCanaryScale} step names (0: none)
 * @param canaryScaleWeight the largest weight a {@code setCanaryScale} step names (0: none)
 * @param maxWeight {@code trafficRouting.maxTrafficWeight} (100 by default)
 * @param minPods {@code minPodsPerReplicaSet} (0: none; Argo applies it only with traffic routing)
 */
public record Canary(IntOrPercent maxSurge, IntOrPercent maxUnavailable, boolean trafficRouted,
        boolean dynamicStableScale, List<Integer> weights, long canaryScaleReplicas, int canaryScaleWeight,
        int scaleDownDelaySeconds, int maxWeight, int minPods) implements Rollout {

    public Canary {
        weights = List.copyOf(weights);
        maxWeight = maxWeight <= 0 ? 100 : maxWeight;
        minPods = Math.max(0, minPods);
    }

    /** Argo's defaults: weights out of 100, no minimum per ReplicaSet. */
    public Canary(IntOrPercent maxSurge, IntOrPercent maxUnavailable, boolean trafficRouted,
            boolean dynamicStableScale, List<Integer> weights, long canaryScaleReplicas, int canaryScaleWeight,
            int scaleDownDelaySeconds) {
        this(maxSurge, maxUnavailable, trafficRouted, dynamicStableScale, weights, canaryScaleReplicas,
                canaryScaleWeight, scaleDownDelaySeconds, 100, 0);
    }

    /** Its maxSurge and maxUnavailable, as a Deployment's RollingUpdate applies them. */
    Rollout.RollingUpdate basic() {
        return new Rollout.RollingUpdate(maxSurge, maxUnavailable);
    }

    /** Without traffic routing only: there its maxSurge sets the surge, as a Deployment's does. */
    @Override
    public Canary withoutSurge(long replicas) {
        if (trafficRouted) {
            return null;
        }
        var alt = basic().withoutSurge(replicas);
        return new Canary(alt.maxSurge(), alt.maxUnavailable(), false, dynamicStableScale, weights,
                canaryScaleReplicas, canaryScaleWeight, scaleDownDelaySeconds, maxWeight, minPods);
    }

    @Override
    public long surge(long replicas) {
        if (!trafficRouted) {
            return basic().surge(replicas);
        }
        long scaled = Math.max(atLeastMin(canaryScaleReplicas), pods(replicas, canaryScaleWeight));
        long promoted = pods(replicas, maxWeight); // the canary at every replica beside the full stable
        long stable = dynamicStableScale ? atLeastMin(replicas) : replicas; // Argo leaves a static stable as is
        return Math.max(dynamicStableScale ? largestStep(replicas) : promoted + stable - replicas,
                scaled + stable - replicas);
    }

    @Override
    public long defaultTerminating(long replicas) {
        if (!trafficRouted) {
            return basic().defaultTerminating(replicas);
        }
        // a superseded canary's pods (up to every replica) shut down beside the stable pods and the new canary
        return replicas;
    }

    @Override
    public String terminatingReason() {
        return !trafficRouted ? Rollout.super.terminatingReason()
                : "a canary superseded by an update during its rollout, every replica at most, shutting down beside "
                        + "the new one, which terminatingPods lowers where updates never overlap a rollout";
    }

    /**
     * With traffic routing: the stable (old) pods beside the canary (new) ones, where they may hold the most, for a
     * {@link Transition}: a {@code setCanaryScale} step's canary beside every stable pod; the canary at every replica
     * beside them at promotion; with dynamicStableScale, each step's canary beside the stable pods still at the weight
     * before.
     */
    List<Transition.Mix> beside(long replicas) {
        long scaled = Math.max(atLeastMin(canaryScaleReplicas), pods(replicas, canaryScaleWeight));
        var out = new java.util.ArrayList<Transition.Mix>();
        out.add(new Transition.Mix(replicas, 0, scaled, scaled));
        if (!dynamicStableScale) {
            out.add(new Transition.Mix(replicas, 0, pods(replicas, maxWeight), pods(replicas, maxWeight)));
            return out;
        }
        for (long[] step : steps(replicas)) {
            out.add(new Transition.Mix(Math.min(replicas, step[1]), 0, step[0], step[0]));
        }
        return out;
    }

    /** Canary pods at one weight plus the stable pods still at the weight before, less the replicas, at its most. */
    private long largestStep(long replicas) {
        long most = 0;
        for (long[] step : steps(replicas)) {
            most = Math.max(most, step[0] + step[1] - replicas);
        }
        return Math.max(0, most);
    }

    /** Each step's canary pods and the stable pods still at the weight before it: {canary, stable}. */
    private List<long[]> steps(long replicas) {
        List<long[]> out = new java.util.ArrayList<>();
        int before = 0;
        for (int w : java.util.stream.Stream.concat(weights.stream(), java.util.stream.Stream.of(maxWeight))
                .toList()) {
            int now = Math.max(0, Math.min(maxWeight, w));
            out.add(new long[]{pods(replicas, now), pods(replicas, maxWeight - Math.min(before, now))});
            before = now;
        }
        return out;
    }

    /** Argo's trafficWeightToReplicas (rounded up, of maxWeight), then minPodsPerReplicaSet for a non-empty one. */
    private long pods(long replicas, int weight) {
        if (weight <= 0) {
            return 0;
        }
        long scaled = Limits.saturatedMultiply(replicas, weight);
        return atLeastMin(scaled / maxWeight + (scaled % maxWeight == 0 ? 0 : 1));
    }

    private long atLeastMin(long count) {
        return count == 0 ? 0 : Math.max(count, minPods);
    }

    @Override
    public String describe(long replicas) {
        if (!trafficRouted) {
            return "Argo Rollouts canary without traffic routing, maxSurge " + maxSurge + " (" + surge(replicas)
                    + (surge(replicas) == 1 ? " pod" : " pods") + ", rounded up), maxUnavailable " + maxUnavailable
                    + ": Argo keeps canary and stable pods within them";
        }
        String min = minPods > 0 ? ", minPodsPerReplicaSet " + minPods : "";
        if (dynamicStableScale) {
            return "Argo Rollouts canary with traffic routing and dynamicStableScale: the stable pods shrink only "
                    + "after the canary of a step has started, " + largestStep(replicas) + " pods at its largest step"
                    + " (weights " + weights + " then " + maxWeight + ")" + min;
        }
        return "Argo Rollouts canary with traffic routing: the stable ReplicaSet keeps every replica while the canary "
                + "grows, and at promotion the canary runs every replica beside it for scaleDownDelaySeconds "
                + scaleDownDelaySeconds + (surge(replicas) > replicas ? " (" + surge(replicas) + " pods more, from "
                        + "setCanaryScale or minPodsPerReplicaSet)" : "")
                + min + "; dynamicStableScale would shrink the stable pods as traffic leaves them";
    }
}
