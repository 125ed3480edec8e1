package io.poolbudget.sizing;

/**
 * How a workload replaces its pods, which decides how many extra pods a rollout can add: a Deployment's or
 * StatefulSet's strategy here, an Argo Rollout's in {@link Canary} and {@link BlueGreen}, a CronJob's Jobs in
 * {@link Batch}.
 */
public sealed interface Rollout permits Rollout.RollingUpdate, Rollout.Recreate, Rollout.Ordered, Canary, BlueGreen,
        Batch {

    /** Pods added above the replica count while a rollout runs. */
    long surge(long replicas);

    /** Old pods that may still be terminating, holding connections, while new ones start. */
    long defaultTerminating(long replicas);

    /** A phrase for explanations. */
    String describe(long replicas);

    /** Why {@link #defaultTerminating} pods are counted, for explanations. */
    default String terminatingReason() {
        return "one rollout step of old pods still terminating";
    }

    /** What the replica count counts, for explanations ("current replicas 4"). */
    default String counted() {
        return "current replicas";
    }

    /**
     * The same strategy with maxSurge 0, for saying what a surge costs; its maxUnavailable kept, or 1 where that
     * resolves to none (Kubernetes and Argo refuse both 0). Null where no maxSurge sets the surge.
     */
    default Rollout withoutSurge(long replicas) {
        return null;
    }

    /** Deployment RollingUpdate. Kubernetes' defaults are 25% / 25%. */
    record RollingUpdate(IntOrPercent maxSurge, IntOrPercent maxUnavailable) implements Rollout {
        public static final RollingUpdate DEFAULT = new RollingUpdate(IntOrPercent.percent(25),
                IntOrPercent.percent(25));

        public RollingUpdate {
            if (maxSurge == null || maxUnavailable == null) {
                throw new IllegalArgumentException("maxSurge and maxUnavailable are required");
            }
        }

        @Override
        public long surge(long replicas) {
            return maxSurge.resolve(replicas, true);
        }

        @Override
        public RollingUpdate withoutSurge(long replicas) {
            return new RollingUpdate(IntOrPercent.of(0),
                    maxUnavailable.resolve(replicas, false) == 0 ? IntOrPercent.of(1) : maxUnavailable);
        }

        /** Unavailable pods, after Kubernetes' fencepost rule: when both resolve to 0, one may be unavailable. */
        public long unavailable(long replicas) {
            long unavailable = maxUnavailable.resolve(replicas, false);
            return surge(replicas) == 0 && unavailable == 0 ? 1 : unavailable;
        }

        /**
         * One rollout step's worth: the controller removes up to surge + unavailable old pods per step,
         * and an old pod holds its pool until the app exits. Assumes an old pod is gone before the next
         * batch of new pods turns Ready; never more than the old pods there are.
         */
        @Override
        public long defaultTerminating(long replicas) {
            return Math.min(replicas, surge(replicas) + unavailable(replicas));
        }

        @Override
        public String describe(long replicas) {
            return "RollingUpdate maxSurge " + maxSurge + " (" + pods(surge(replicas))
                    + ", rounded up), maxUnavailable "
                    + maxUnavailable + " (" + pods(unavailable(replicas)) + ", rounded down)";
        }

        private static String pods(long n) {
            return n + (n == 1 ? " pod" : " pods");
        }
    }

    /** Deployment Recreate: every old pod is gone before a new one starts. */
    record Recreate() implements Rollout {
        @Override
        public long surge(long replicas) {
            return 0;
        }

        @Override
        public long defaultTerminating(long replicas) {
            return 0;
        }

        @Override
        public String describe(long replicas) {
            return "Recreate (old pods are gone before new ones start)";
        }
    }

    /** StatefulSet: a pod keeps its name, so its replacement starts only after it is gone. */
    record Ordered() implements Rollout {
        @Override
        public long surge(long replicas) {
            return 0;
        }

        @Override
        public long defaultTerminating(long replicas) {
            return 0;
        }

        @Override
        public String describe(long replicas) {
            return "StatefulSet (a pod is replaced only after it is gone)";
        }
    }
}
