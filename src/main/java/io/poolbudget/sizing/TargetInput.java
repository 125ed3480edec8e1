package io.poolbudget.sizing;

/**
 * One workload to size. {@code id} is unique within a plan (for example "Deployment/checkout-api")
 * and breaks ties. Nullable fields mean "not given": {@code hpaMaxReplicas} (no HPA),
 * {@code maxPoolSize} (no upper bound), {@code basis} (HPA_MAX with an HPA, else CURRENT),
 * {@code fixedReplicas} (only with FIXED), {@code terminatingPods} (the rollout's default allowance),
 * {@code seenTerminating} (the most of its pods seen terminating at once, by whoever watches them),
 * {@code shutdownSteps} (how many rollout steps one old pod's shutdown may span, from its preStop
 * against the time a new pod takes to turn Ready; 1), {@code scaler} (what scales it, for messages, for example
 * "HorizontalPodAutoscaler/checkout"), {@code disruptions} (the PodDisruptionBudgets that select its pods; none: empty),
 * {@code disruptionPods} (pods a drain may evict at once, as the target says: plans for them with or without a budget).
 * {@code field} is the PoolPolicy path errors name, for example "targets[1]".
 */
public record TargetInput(String id, String field, int replicas, Integer hpaMaxReplicas, Rollout rollout, int weight,
        int minPoolSize, Integer maxPoolSize, int poolsPerPod, Basis basis, Integer fixedReplicas,
        Integer terminatingPods, Integer seenTerminating, Integer shutdownSteps, String scaler,
        java.util.List<Disruption> disruptions,
        Integer disruptionPods) {

    public TargetInput {
        disruptions = disruptions == null ? java.util.List.of() : java.util.List.copyOf(disruptions);
        if (id == null || id.isBlank()) {
            throw new InvalidInputException(field + ".name", "is required");
        }
        if (rollout == null) {
            throw new InvalidInputException(field, "has no rollout strategy");
        }
        Check.atLeast(field + " replicas", replicas, 0);
        if (hpaMaxReplicas != null) {
            Check.atLeast(field + " HPA maxReplicas", hpaMaxReplicas, 1);
        }
        Check.atLeast(field + ".weight", weight, 1);
        Check.atMost(field + ".weight", weight, Limits.WEIGHT);
        Check.atLeast(field + ".minPoolSize", minPoolSize, 1);
        Check.atMost(field + ".minPoolSize", minPoolSize, Limits.POOL_SIZE);
        Check.atLeast(field + ".poolsPerPod", poolsPerPod, 1);
        Check.atMost(field + ".poolsPerPod", poolsPerPod, Limits.POOLS_PER_POD);
        if (maxPoolSize != null) {
            Check.atMost(field + ".maxPoolSize", maxPoolSize, Limits.POOL_SIZE);
        }
        if (maxPoolSize != null && maxPoolSize < minPoolSize) {
            throw new InvalidInputException(field + ".minPoolSize", "must not exceed maxPoolSize (" + minPoolSize
                    + " > " + maxPoolSize + "): lower minPoolSize or raise maxPoolSize");
        }
        if ((basis == Basis.FIXED) != (fixedReplicas != null)) {
            throw new InvalidInputException(field + ".fixedReplicas",
                    "is required with basis Fixed and only allowed with it");
        }
        if (fixedReplicas != null) {
            Check.atLeast(field + ".fixedReplicas", fixedReplicas, 0);
            Check.atMost(field + ".fixedReplicas", fixedReplicas, Limits.REPLICAS);
        }
        if (terminatingPods != null) {
            Check.atLeast(field + ".terminatingPods", terminatingPods, 0);
            Check.atMost(field + ".terminatingPods", terminatingPods, Limits.REPLICAS);
        }
        if (seenTerminating != null) {
            Check.atLeast(field + " pods seen terminating", seenTerminating, 0);
        }
        if (shutdownSteps != null) {
            Check.atLeast(field + " shutdown steps", shutdownSteps, 1);
        }
        if (disruptionPods != null) {
            Check.atLeast(field + ".disruptionPods", disruptionPods, 0);
            Check.atMost(field + ".disruptionPods", disruptionPods, Limits.REPLICAS);
        }
    }

    public static Builder builder(String id) {
        return new Builder(id);
    }

    /** A builder holding this target's values, to change some of them. */
    public Builder toBuilder() {
        return builder(id).field(field).replicas(replicas).hpaMaxReplicas(hpaMaxReplicas).rollout(rollout)
                .weight(weight)
                .minPoolSize(minPoolSize).maxPoolSize(maxPoolSize).poolsPerPod(poolsPerPod).basis(basis)
                .fixedReplicas(fixedReplicas).terminatingPods(terminatingPods).seenTerminating(seenTerminating)
                .shutdownSteps(shutdownSteps).scaler(scaler).disruptions(disruptions).disruptionPods(disruptionPods);
    }

    /** Builds a target with the PoolPolicy defaults: weight 1, minPoolSize 1, one pool per pod, RollingUpdate 25%/25%. */
    public static final class Builder {
        private final String id;
        private String field = "target";
        private int replicas = 1;
        private Integer hpaMaxReplicas;
        private Rollout rollout = Rollout.RollingUpdate.DEFAULT;
        private int weight = 1;
        private int minPoolSize = 1;
        private Integer maxPoolSize;
        private int poolsPerPod = 1;
        private Basis basis;
        private Integer fixedReplicas;
        private Integer terminatingPods;
        private Integer seenTerminating;
        private Integer shutdownSteps;
        private String scaler;
        private java.util.List<Disruption> disruptions;
        private Integer disruptionPods;

        private Builder(String id) {
            this.id = id;
        }

        public Builder field(String v) {
            field = v;
            return this;
        }
        public Builder replicas(int v) {
            replicas = v;
            return this;
        }
        public Builder hpaMaxReplicas(Integer v) {
            hpaMaxReplicas = v;
            return this;
        }
        public Builder rollout(Rollout v) {
            rollout = v;
            return this;
        }
        public Builder weight(int v) {
            weight = v;
            return this;
        }
        public Builder minPoolSize(int v) {
            minPoolSize = v;
            return this;
        }
        public Builder maxPoolSize(Integer v) {
            maxPoolSize = v;
            return this;
        }
        public Builder poolsPerPod(int v) {
            poolsPerPod = v;
            return this;
        }
        public Builder basis(Basis v) {
            basis = v;
            return this;
        }
        public Builder fixedReplicas(Integer v) {
            fixedReplicas = v;
            return this;
        }
        public Builder terminatingPods(Integer v) {
            terminatingPods = v;
            return this;
        }
        public Builder seenTerminating(Integer v) {
            seenTerminating = v;
            return this;
        }
        public Builder shutdownSteps(Integer v) {
            shutdownSteps = v;
            return this;
        }
        public Builder scaler(String v) {
            scaler = v;
            return this;
        }

        public Builder disruptions(java.util.List<Disruption> v) {
            disruptions = v;
            return this;
        }
        public Builder disruptionPods(Integer v) {
            disruptionPods = v;
            return this;
        }

        public TargetInput build() {
            return new TargetInput(id, field, replicas, hpaMaxReplicas, rollout, weight, minPoolSize, maxPoolSize,
                    poolsPerPod, basis, fixedReplicas, terminatingPods, seenTerminating, shutdownSteps, scaler,
                    disruptions, disruptionPods);
        }
    }
}
