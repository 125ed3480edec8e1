package io.poolbudget.sizing;

/**
 * A PodDisruptionBudget that selects a target's pods, as a drain reads it: the Eviction API evicts a pod only while
 * the budget's healthy pods stay at or above what it asks, so a drain takes down at once what {@link #pods} says.
 * {@code maxUnavailable} and {@code minAvailable} are as the budget gives them (at most one of them; neither: the
 * budget bounds nothing). {@code name} names it for explanations, for example "PodDisruptionBudget/checkout".
 */
public record Disruption(String name, IntOrPercent maxUnavailable, IntOrPercent minAvailable) {

    public Disruption {
        if (maxUnavailable != null && minAvailable != null) {
            throw new IllegalArgumentException(name + " sets both maxUnavailable and minAvailable");
        }
    }

    /**
     * The pods of {@code replicas} a drain may evict at once, as the disruption controller rounds: maxUnavailable
     * resolved with a percentage rounded up; replicas − minAvailable, a percentage of it rounded up too (so fewer may
     * go); every pod where the budget sets neither. Never more than the replicas, never negative.
     */
    public long pods(long replicas) {
        long pods = maxUnavailable != null ? maxUnavailable.resolve(replicas, true)
                : minAvailable != null ? replicas - minAvailable.resolve(replicas, true) : replicas;
        return Math.max(0, Math.min(pods, replicas));
    }

    /** "PodDisruptionBudget/x maxUnavailable 50%", for explanations. */
    public String describe() {
        return name + (maxUnavailable != null ? " maxUnavailable " + maxUnavailable
                : minAvailable != null ? " minAvailable " + minAvailable
                        : " (neither minAvailable nor maxUnavailable)");
    }
}
