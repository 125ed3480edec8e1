package io.poolbudget.decide;

import io.poolbudget.decide.TargetOutcome.Held;
import io.poolbudget.decide.TargetOutcome.State;
import io.poolbudget.planning.Workload;
import io.poolbudget.sizing.TargetAllocation;
import java.time.Instant;
import java.util.List;

/** A target the policy may write: what it is now and what the rollout rules see of it. */
record Sized(Workload workload, TargetAllocation allocation, int index, List<String> containers, Held live,
        boolean paused, String stalled, RolloutDecider.TargetState state, String budgetChange, LiveTarget resize) {
    TargetOutcome outcome(Integer applied, State state, String message, Instant pendingSince, boolean wrote) {
        String why = resize == null || resize.cannotAdd() == null ? message
                : message + " (resize Live unavailable: " + resize.cannotAdd() + ")";
        return new TargetOutcome(workload.kind().name(), workload.name(), workload, allocation, applied, state,
                why, pendingSince, wrote, live, resize == null ? null : resize.status());
    }

    /** The same target at {@code size} in place of its size by weights (the allocation by demand's). */
    Sized sizedAt(int size) {
        if (size == allocation.poolSize()) {
            return this;
        }
        var a = new TargetAllocation(allocation.peak(), size, allocation.fairShare(), allocation.oversubscribed(),
                allocation.fit(), allocation.strategyCost());
        var t = state;
        return new Sized(workload, a, index, containers, live, paused, stalled, new RolloutDecider.TargetState(
                t.id(), size, t.applied(), t.holds(), t.rolledOut(), t.pendingSince(), t.stalled(),
                t.runningHolds()), budgetChange, resize);
    }

    /** Its resize mode Live where the agent can go into its pods; null where it is sized by rollouts. */
    LiveTarget liveAgent() {
        return resize == null || resize.cannotAdd() != null ? null : resize;
    }

    /** A paused Deployment keeps the pods it has: say what they hold and how to go on. */
    TargetOutcome pausedOutcome(Integer applied, String what, boolean wrote) {
        return outcome(applied, State.Paused, "paused (kubectl rollout pause) " + what + ": its pods hold "
                + (live.anyNumber() ? "any number of" : Long.toString(live.connections()))
                + " connections, the plan gives it " + allocation.connections()
                + "; resume it with kubectl rollout resume deployment/" + workload.name(), null, wrote);
    }
}
