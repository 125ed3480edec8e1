package io.poolbudget.decide;

/**
 * A target of a policy in resize mode Live: whether its template loads the agent, why it cannot (null when it
 * can), the size its pods start with, and its pods against the live size (null before the agent is in).
 */
record LiveTarget(boolean agentIn, String cannotAdd, Integer templateSize, LivePods pods) {
    TargetOutcome.Resize status() {
        return !agentIn || pods == null ? new TargetOutcome.Resize("Rollout", null, null, null)
                : new TargetOutcome.Resize("Live", pods.confirmed(), pods.pods() - pods.pending().size(),
                        pods.describe(), pods.agents(), pods.agentProblems());
    }
}
