package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.fabric8.kubernetes.api.model.Pod;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.planning.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The pods of one live-mode target against the size it is to hold: how many hold it and which do not yet, why, and
 * since when. A pod holds it when its agent confirms it (the size published to it, every pool at it and holding no
 * more), or when it started with it from the current template and nothing else was published to it since.
 */
record LivePods(int pods, int confirmed, List<Pending> pending, List<Agent> agentsRead, long nextSettle) {
    /** How many pods' agents status lists. */
    static final int AGENTS_SHOWN = 5;
    /** How long a pod is Ready before its agent's report is said (see {@link #settles}). */
    static final long SETTLE_MS = 10_000;

    /** One running, Ready pod's agent as last read: the pools it found, or why it cannot size them. */
    record Agent(String pod, AgentReport report) {
        String line() {
            return pod + ": " + report.describe();
        }
    }

    /** A pod that does not hold the size yet; {@code since}: epoch ms its agent was first found not confirming it. */
    record Pending(String pod, String reason, long since, boolean terminating) {}

    static LivePods of(ClusterView view, Workload w, Owner owner, InjectionSpec spec, List<String> containers,
            int size, long nowMs) {
        String current = InjectionReads.revision(owner, spec, view.template(w), containers);
        List<Pending> pending = new ArrayList<>();
        List<Agent> agents = new ArrayList<>();
        long nextSettle = 0;
        int confirmed = 0;
        List<Pod> pods = view.podsOf(w);
        for (Pod p : pods) {
            Integer published = LiveResize.published(p.getMetadata(), owner);
            AgentReport r = view.report(p);
            // only pods that load the agent: older ones, started before it went in, are being replaced
            if (p.getMetadata().getDeletionTimestamp() == null && LiveResize.agentIn(p.getSpec(), containers, owner)) {
                long settles = settles(p);
                if (r != null && settles >= 0 && settles <= nowMs) {
                    agents.add(new Agent(p.getMetadata().getName(), r));
                } else if (settles > nowMs) {
                    nextSettle = nextSettle == 0 ? settles : Math.min(nextSettle, settles);
                }
            }
            boolean confirmedAt = r != null && r.confirmed() && Objects.equals(r.published(), size)
                    && Objects.equals(published, size);
            boolean startedAt = Objects.equals(InjectionReads.heldSize(owner, spec, p.getMetadata(), p.getSpec(),
                    containers), size)
                    && Objects.equals(current, InjectionReads.podRevision(owner, spec, p.getMetadata(), p.getSpec(),
                            containers))
                    && (published == null || published == size)
                    && (r == null || !r.confirmed() || Objects.equals(r.published(), size));
            if (confirmedAt) {
                confirmed++;
            } else if (!startedAt) {
                String reason = LiveResize.pendingReason(published, r, size);
                pending.add(new Pending(p.getMetadata().getName(), reason == null ? "not confirmed" : reason,
                        r == null ? 0 : r.since(), p.getMetadata().getDeletionTimestamp() != null));
            }
        }
        return new LivePods(pods.size(), confirmed, List.copyOf(pending), List.copyOf(agents), nextSettle);
    }

    /**
     * Each running pod's agent, as soon as its app is up and whether or not a size change is in flight: those that
     * cannot size their pools first (no pool found, a pool it cannot resize), then the others with the pools they found;
     * the first {@link #AGENTS_SHOWN}, and how many more. Null when no agent was read yet.
     */
    List<String> agents() {
        if (agentsRead.isEmpty()) {
            return null;
        }
        var sorted = agentsRead.stream()
                .sorted(java.util.Comparator.comparing((Agent a) -> a.report().problem() == null)
                        .thenComparing(Agent::pod))
                .map(Agent::line).toList();
        List<String> shown = new ArrayList<>(sorted.subList(0, Math.min(AGENTS_SHOWN, sorted.size())));
        if (sorted.size() > shown.size()) {
            shown.add("and " + (sorted.size() - shown.size()) + " more pods");
        }
        return shown;
    }

    /** The agents that cannot size their pods' pools, one line each (not a read that may succeed next time). */
    List<String> agentProblems() {
        return agentsRead.stream().filter(a -> a.report().lastingProblem()).map(Agent::line).toList();
    }

    /**
     * When the pod will have been Ready for {@link #SETTLE_MS} (epoch ms; 0 where it is Ready since a time not said; -1
     * while it is not Ready): its app has started and its agent has looked for its pools since (a JVM still starting has
     * none, an app may build its pool on its first request, and the agent looks twice a second).
     */
    private static long settles(Pod p) {
        if (p.getStatus() == null || p.getStatus().getConditions() == null) {
            return -1;
        }
        return p.getStatus().getConditions().stream()
                .filter(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()))
                .mapToLong(c -> c.getLastTransitionTime() == null ? 0
                        : readySince(c.getLastTransitionTime()) + SETTLE_MS)
                .findFirst().orElse(-1);
    }

    private static long readySince(String time) {
        try {
            return java.time.Instant.parse(time).toEpochMilli();
        } catch (java.time.format.DateTimeParseException e) {
            return 0; // a time the API server would not write: as if long ago
        }
    }

    /** The running pods that have not confirmed the size within {@code deadlineMs} of being asked to. */
    List<Pending> overdue(long nowMs, long deadlineMs) {
        return pending.stream().filter(p -> !p.terminating() && p.since() > 0 && nowMs - p.since() >= deadlineMs)
                .toList();
    }

    /**
     * When the first pending pod reaches the deadline, or a Ready pod's agent is to be said (epoch ms), or 0 when none
     * is waited for.
     */
    long nextDeadline(long deadlineMs) {
        long deadline = pending.stream().filter(p -> !p.terminating() && p.since() > 0)
                .mapToLong(p -> p.since() + deadlineMs).min().orElse(0);
        return deadline == 0 ? nextSettle : nextSettle == 0 ? deadline : Math.min(deadline, nextSettle);
    }

    /** The pending pods as status shows them: the first few, each with why. */
    List<String> describe() {
        return pending.stream().limit(5).map(p -> p.pod() + ": " + p.reason()).toList();
    }
}
