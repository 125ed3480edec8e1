package io.poolbudget.sizing;

/**
 * One target as the demand solver sees it. cost = peak pods × pools per pod (connections per unit of pool size).
 * nominal = its pool size by weights (PoolSizer's). demand = smoothed connections wanted per pod (in use + waiting),
 * null = unknown (no reports: it takes its nominal). current = the size in force now. mayRise = false while its
 * change-rate bound holds it (it may still shrink when a lender reclaims).
 */
public record DemandTarget(String id, int weight, long cost, int nominal, int minPoolSize, Integer maxPoolSize,
        Double demand, int current, boolean mayRise) {
    public DemandTarget {
        if (id == null || id.isEmpty()) {
            throw new InvalidInputException("target id", "is required");
        }
        Check.atLeast("weight of " + id, weight, 1);
        Check.atMost("weight of " + id, weight, Limits.WEIGHT);
        Check.atLeast("cost of " + id, cost, 0);
        Check.atLeast("nominal pool size of " + id, nominal, 0);
        Check.atMost("nominal pool size of " + id, nominal, Limits.POOL_SIZE);
        Check.atLeast("minPoolSize of " + id, minPoolSize, 0);
        Check.atMost("minPoolSize of " + id, minPoolSize, Limits.POOL_SIZE);
        if (maxPoolSize != null) {
            Check.atLeast("maxPoolSize of " + id, maxPoolSize, minPoolSize);
            Check.atMost("maxPoolSize of " + id, maxPoolSize, Limits.POOL_SIZE);
        }
        if (demand != null && !(demand >= 0 && demand <= Limits.POOL_SIZE)) {
            throw new InvalidInputException("demand of " + id,
                    "must be a number of connections per pod in [0, " + Limits.POOL_SIZE + "], got " + demand);
        }
        Check.atLeast("current pool size of " + id, current, 0);
        Check.atMost("current pool size of " + id, current, Limits.POOL_SIZE);
    }
}
