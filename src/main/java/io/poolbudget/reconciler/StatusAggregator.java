package io.poolbudget.reconciler;

import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import java.time.Clock;
import java.util.List;

/** Builds the whole desired status from what a pass observed. Pure: no client, no I/O. */
public final class StatusAggregator {
    private final Clock clock;

    public StatusAggregator(Clock clock) {
        this.clock = clock;
    }

    public PoolPolicyStatus reconciled(PoolPolicy policy) {
        long generation = policy.getMetadata().getGeneration() == null ? 0 : policy.getMetadata().getGeneration();
        var previous = policy.getStatus() == null ? null : policy.getStatus().getConditions();
        var status = new PoolPolicyStatus();
        status.setObservedGeneration(generation);
        status.setConditions(List.of(Conditions.carry(previous, Conditions.READY, Conditions.TRUE,
                Conditions.REASON_RECONCILED, "The policy was reconciled.", generation, clock)));
        return status;
    }
}
