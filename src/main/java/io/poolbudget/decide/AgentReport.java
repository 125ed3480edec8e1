package io.poolbudget.decide;

/**
 * What one pod's agent said when last asked (the operator reads its status port; the pod writes nothing): the size it
 * reads from its file ({@code published}), whether every pool it sizes is at that size and holds no more
 * ({@code confirmed}), the connections its pools hold, the size it last confirmed, and why it cannot confirm
 * ({@code problem}: no agent answers, no pool found, a pool it cannot resize). {@code since}: the first time the
 * operator found it not confirming the size published to it now, in epoch milliseconds (0 while it confirms), for the
 * deadline after which its workload takes the size by a rollout.
 */
public record AgentReport(Integer published, boolean confirmed, int holds, Integer lastConfirmed, String problem,
        long since) {}
