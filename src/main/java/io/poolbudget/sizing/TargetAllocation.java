package io.poolbudget.sizing;

import java.util.Locale;

/**
 * What one target gets: its per-pod pool size and the connections its peak pods can hold.
 * {@code fairShare} is the continuous share per unit of weight (infinite when the budget covers
 * every maximum); {@code oversubscribed} is the reason minimums apply, or null when the plan fits; {@code fit}, how far
 * it may grow with every target at its minimum; {@code strategyCost}, what its rollout surge costs it, said (null where
 * nothing, or not computed).
 */
public record TargetAllocation(PeakPods peak, int poolSize, double fairShare, String oversubscribed, Fit fit,
        String strategyCost) {

    TargetAllocation withStrategyCost(String cost) {
        return new TargetAllocation(peak, poolSize, fairShare, oversubscribed, fit, cost);
    }

    public String id() {
        return peak.target().id();
    }

    public int poolsPerPod() {
        return peak.target().poolsPerPod();
    }

    public int weight() {
        return peak.target().weight();
    }

    /** peak pods × pools per pod × pool size */
    public long connections() {
        return Limits.saturatedMultiply(peak.cost(), poolSize);
    }

    /**
     * When this target gets a pool of 1 (and its minPoolSize allows 1), what that costs and what to change; null
     * otherwise. Where the rollout reserve keeps it there (its surge and terminating pods are counted at the same pool
     * as its running ones), how much; in every case, that an app which takes a second connection while it holds one
     * cannot run on it, and the field that gives it 2. {@code plan}, {@code calibrate -f} and the operator's status say
     * the same words.
     */
    public String reserveAdvice(long budgetConnections) {
        long reserve = peak.surge() + peak.terminating();
        if (poolSize != 1 || peak.basisReplicas() <= 0 || peak.target().minPoolSize() > 1) {
            return null;
        }
        String startUp = "An app that takes a second connection while it holds one (Keycloak does at start-up) cannot "
                + "run on a pool of 1: give it " + peak.target().field() + ".minPoolSize: 2";
        if (reserve <= 0) {
            return id() + " gets a pool of 1 per pod. " + startUp + ", or more budget (check with plan).";
        }
        return String.format(Locale.ROOT,
                "%s gets a pool of 1 per pod: its rollout reserve (%d of its %d peak pods) is "
                        + "counted at the same pool, so in steady state its running pods use %d of the budget's %d connections, "
                        + "and a pool of 1 serialises each pod's requests. More budget, or maxSurge: 0 on it, gives its pods more "
                        + "(check with plan). %s.",
                id(), reserve, peak.total(), Limits.saturatedMultiply(peak.basisReplicas(),
                        poolsPerPod()),
                budgetConnections, startUp);
    }

    /** How the pool size was reached, built on demand. */
    public String explanation() {
        TargetInput t = peak.target();
        String text;
        if (oversubscribed != null) {
            text = "pool size " + poolSize + ": " + oversubscribed;
        } else if (Double.isInfinite(fairShare)) {
            text = "pool size " + poolSize + (t.maxPoolSize() != null && poolSize == t.maxPoolSize()
                    ? ": maxPoolSize, since the budget covers every target's maximum"
                    : ": the whole budget, since nothing else needs it");
        } else {
            double share = fairShare * t.weight();
            text = String.format(Locale.ROOT, "pool size %d: fair share weight %d × %.3f per unit of weight = %.2f",
                    poolSize, t.weight(), fairShare, share);
            if (poolSize == t.minPoolSize() && share < t.minPoolSize()) {
                text += ", raised to minPoolSize " + t.minPoolSize();
            } else if (t.maxPoolSize() != null && poolSize == t.maxPoolSize() && share > t.maxPoolSize()) {
                text += ", capped at maxPoolSize " + t.maxPoolSize();
            } else {
                text += ", rounded in fair order to " + poolSize;
            }
        }
        return text + "; " + (peak.total() == 0 ? "no pods planned, so it uses no budget until it has some"
                : poolSize + " × " + peak.total() + " peak pods × " + poolsPerPod() + " pools per pod = "
                        + connections()
                        + " connections");
    }
}
