package io.poolbudget.sizing;

/** What one target gets: its per-pod pool size and the connections its peak pods can hold. */
public record TargetAllocation(String id, PeakPods peak, int poolsPerPod, int weight, int poolSize, String explanation) {

    /** peak pods × pools per pod × pool size */
    public long connections() { return (long) peak.total() * poolsPerPod * poolSize; }
}
