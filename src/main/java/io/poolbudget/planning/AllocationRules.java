package io.poolbudget.planning;

import io.poolbudget.api.v1alpha1.AllocationMode;
import io.poolbudget.api.v1alpha1.AllocationSpec;
import io.poolbudget.api.v1alpha1.PoolPolicySpec;
import io.poolbudget.api.v1alpha1.ResizeMode;
import io.poolbudget.sizing.InvalidInputException;
import io.poolbudget.sizing.Limits;

/**
 * The CRD's rules on spec.allocation (its bounds and CEL rules), for the plan command and objects stored before the
 * rules: the API server applies them in a cluster. One wording with the CRD's messages.
 */
final class AllocationRules {
    private AllocationRules() {}

    static void check(PoolPolicySpec spec) {
        AllocationSpec allocation = spec.getAllocation();
        if (allocation == null) {
            return;
        }
        AllocationMode mode = AllocationMode.of(allocation);
        if (mode == AllocationMode.Weights) {
            String given = allocation.getLendablePercent() != null ? "lendablePercent"
                    : allocation.getBorrowingLimitPercent() != null ? "borrowingLimitPercent"
                            : allocation.getPeriodSeconds() != null ? "periodSeconds" : null;
            if (given != null) {
                throw new InvalidPolicyException("spec.allocation." + given, "does nothing with mode Weights (the "
                        + "default): remove it, or set allocation.mode: Demand or Recommend");
            }
        }
        if (mode == AllocationMode.Demand && ResizeMode.of(spec.getInjection()) != ResizeMode.Live) {
            throw new InvalidPolicyException("spec.allocation.mode",
                    AllocationSpec.DEMAND_MESSAGE.substring("allocation.mode ".length()));
        }
        try {
            bounded("spec.allocation.lendablePercent", allocation.getLendablePercent(), 0,
                    AllocationSpec.MAX_LENDABLE_PERCENT);
            bounded("spec.allocation.borrowingLimitPercent", allocation.getBorrowingLimitPercent(), 0,
                    AllocationSpec.MAX_BORROWING_LIMIT_PERCENT);
            bounded("spec.allocation.periodSeconds", allocation.getPeriodSeconds(), AllocationSpec.MIN_PERIOD_SECONDS,
                    AllocationSpec.MAX_PERIOD_SECONDS);
        } catch (InvalidInputException e) {
            throw new InvalidPolicyException(e.field(), e.getMessage().substring(e.field().length() + 1));
        }
    }

    private static void bounded(String field, Integer value, int min, int max) {
        if (value != null) {
            Limits.bounded(field, value.longValue(), min, max);
        }
    }
}
