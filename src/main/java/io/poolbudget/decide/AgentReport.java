package io.poolbudget.decide;

/**
 * What one pod's agent said when last asked (the operator reads its status port; the pod writes nothing): the size it
 * reads from its file ({@code published}), whether every pool it sizes is at that size and holds no more
 * ({@code confirmed}), the connections its pools hold, the size it last confirmed, and why it cannot confirm
 * ({@code problem}: no agent answers, no pool found, a pool it cannot resize). {@code since}: the first time the
 * operator found it not confirming the size published to it now, in epoch milliseconds (0 while it confirms), for the
 * deadline after which its workload takes the size by a rollout. {@code pools}: how many pools it found (null where
 * it did not say). {@code demand}: the pod's demand for connections, the highest sum over its pools of connections in use
 * plus callers waiting for one, sampled ten times a second over the agent's last 10 s (null where the agent did not
 * report it: an older agent, a pool that cannot say what it has in use). {@code recent}: the highest of those samples
 * in the agent's current and previous second (what the pod wants now; null where not said).
 */
public record AgentReport(Integer published, boolean confirmed, int holds, Integer lastConfirmed, String problem,
        long since, Integer pools, Integer demand, Integer recent) {
    /** A report that does not say the pod's recent demand. */
    public AgentReport(Integer published, boolean confirmed, int holds, Integer lastConfirmed, String problem,
            long since, Integer pools, Integer demand) {
        this(published, confirmed, holds, lastConfirmed, problem, since, pools, demand, null);
    }

    /** A report that does not say how many pools the agent found. */
    public AgentReport(Integer published, boolean confirmed, int holds, Integer lastConfirmed, String problem,
            long since) {
        this(published, confirmed, holds, lastConfirmed, problem, since, null, null);
    }

    /** A report that does not say the pod's demand. */
    public AgentReport(Integer published, boolean confirmed, int holds, Integer lastConfirmed, String problem,
            long since, Integer pools) {
        this(published, confirmed, holds, lastConfirmed, problem, since, pools, null);
    }

    /** The same report without its demand (either): what changes when the pod's load does, not its sizing. */
    public AgentReport withoutDemand() {
        return demand == null && recent == null ? this
                : new AgentReport(published, confirmed, holds, lastConfirmed, problem, since, pools, null, null);
    }

    /** A read that timed out or failed on the way: the agent may answer next time (a pause of the pod's JVM). */
    public static final String SLOW = "its agent did not answer within 1.5 s";
    public static final String UNREADABLE = "its agent could not be read";

    /** A problem that is the agent's own, not a read that may succeed next time. */
    public boolean lastingProblem() {
        return problem != null && !problem.startsWith(SLOW) && !problem.startsWith(UNREADABLE);
    }

    /** The agent as status shows it: why it cannot size its pods' pools, else how many pools it found. */
    public String describe() {
        return problem != null ? problem : pools == null ? "answers" : pools + (pools == 1 ? " pool" : " pools")
                + " found";
    }
}
