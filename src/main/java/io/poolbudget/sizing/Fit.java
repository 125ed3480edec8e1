package io.poolbudget.sizing;

/**
 * How far one target may grow before the budget can no longer hold every target at its minPoolSize: the largest count
 * its basis may name ({@code replicas}: its replicas for Current and Fixed, where pods running past fixedReplicas
 * count too; its HPA's maxReplicas for HpaMax) and the connections the budget leaves it beside the other targets' minimums ({@code left},
 * below zero when those alone exceed it). What admission warns against before a scale, and what {@code plan} shows.
 */
public record Fit(Long replicas, long left) {

    /** {@code others}: the connections every other target needs at its minPoolSize, at its peak pods. */
    static Fit of(PeakPods peak, long budget, long others) {
        long left = budget - others; // others saturates at Long.MAX_VALUE: no overflow below zero
        if (need(peak, 0) > left) {
            return new Fit(0L, left);
        }
        long lo = 0;
        long hi = Limits.REPLICAS;
        if (need(peak, hi) <= left) {
            return new Fit(hi, left);
        }
        while (hi - lo > 1) { // need(lo) fits, need(hi) does not; need grows with the count
            long mid = (lo + hi) >>> 1;
            if (need(peak, mid) <= left) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return new Fit(lo, left);
    }

    /** Connections the target needs at its minPoolSize when its basis names {@code count}. */
    static long need(PeakPods peak, long count) {
        TargetInput t = peak.target();
        int n = (int) count;
        var at = peak.basis() == Basis.HPA_MAX && t.hpaMaxReplicas() != null
                // the HPA keeps its pods at or below its maximum
                ? t.toBuilder().hpaMaxReplicas(Math.max(1, n)).replicas(Math.min(t.replicas(), n))
                : t.toBuilder().replicas(n);
        return Limits.saturatedMultiply(PeakPods.of(at.build()).cost(), t.minPoolSize());
    }

    /** "fits up to 23 replicas at minPoolSize 1 (the budget leaves 24 connections beside the other targets' minimums)". */
    public String describe(PeakPods peak) {
        TargetInput t = peak.target();
        String what = peak.basis() == Basis.HPA_MAX && t.hpaMaxReplicas() != null ? "an HPA maxReplicas of " + replicas
                : replicas + " replicas";
        return "fits up to " + what + " at minPoolSize " + t.minPoolSize() + " (the budget leaves " + Math.max(0, left)
                + " connections beside the other targets' minimums)";
    }
}
