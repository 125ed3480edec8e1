package io.poolbudget.sizing;

import java.util.List;

/**
 * The result of sizing one policy. With {@link Verdict#FITS}, Σ connections ≤ budget. With
 * {@link Verdict#OVERSUBSCRIBED}, even every target's minPoolSize exceeds the budget: the sizes
 * are those minimums and {@link #ratio()} says by how much they overshoot.
 */
public record Allocation(Budget budget, List<TargetAllocation> targets, Verdict verdict, String unallocatedReason) {

    public enum Verdict {
        FITS, OVERSUBSCRIBED
    }

    public long allocated() {
        return targets.stream().mapToLong(TargetAllocation::connections).reduce(0, Limits::saturatedAdd);
    }

    /** Budget not handed out: everyone at maxPoolSize, or the next step in fair order would not fit. */
    public long unallocated() {
        return Math.max(0, budget.connections() - allocated());
    }

    /** allocated / budget: at most 1 when it fits, above 1 when oversubscribed. */
    public double ratio() {
        return (double) allocated() / budget.connections();
    }

    public TargetAllocation target(String id) {
        return targets.stream().filter(t -> t.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no target " + id));
    }
}
