package io.poolbudget.api.v1alpha1;

/** How the budget is shared between a policy's targets (docs on {@link AllocationSpec#getMode}). */
public enum AllocationMode {
    Weights, Demand, Recommend;

    public static AllocationMode of(AllocationSpec spec) {
        return spec == null || spec.getMode() == null ? Weights : spec.getMode();
    }
}
