package io.poolbudget.decide;

import io.fabric8.kubernetes.api.model.Pod;
import io.poolbudget.planning.Workload;
import java.util.List;

/**
 * A target's demand sample per pod, read from what the pass sees: its running pods' agents, else the database's
 * connections in use from its pods' addresses.
 *
 * <p>The agents' demands are averaged over the pods that report one, not maxed: every pod of a target takes the same
 * size, and the solver pays for a size at every peak pod, so the mean times the pods is what the target wants in all.
 * The max would size every pod for the busiest one's burst (a pod the load balancer happened to favour for a second)
 * and borrow from the other targets for pods that do not use it. Each pod's own value is already a high watermark over
 * the agent's window, so a burst is not averaged away over time, only over pods.
 */
final class DemandSamples {
    private DemandSamples() {}

    /**
     * A sample per pod and its source ({@link DemandStep#AGENT} or {@link DemandStep#DATABASE}); null: none.
     * {@code recent}: the agents' recent demand per pod, where every pod that reports a demand says it (else null).
     */
    record Sample(Double perPod, String source, Double recent) {
        static final Sample NONE = new Sample(null, null, null);
    }

    static Sample of(ClusterView view, Workload w, DemandInput in) {
        List<Pod> running = view.podsOf(w).stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .toList();
        long sum = 0;
        long recent = 0;
        int reporting = 0;
        boolean allRecent = true;
        for (Pod p : running) {
            AgentReport r = view.report(p);
            if (r != null && r.demand() != null) {
                sum += r.demand();
                reporting++;
                allRecent &= r.recent() != null;
                recent += r.recent() == null ? 0 : r.recent();
            }
        }
        if (reporting > 0) {
            return new Sample((double) sum / reporting, DemandStep.AGENT,
                    allRecent ? (double) recent / reporting : null);
        }
        if (running.isEmpty() || in.inUseByAddress().isEmpty()) {
            return Sample.NONE;
        }
        // the database sees only connections in use, not callers waiting for one: said in demandSource
        long inUse = view.podIps(w, in.clientPods()).stream()
                .mapToLong(ip -> in.inUseByAddress().getOrDefault(ip, 0L)).sum();
        return new Sample((double) inUse / running.size(), DemandStep.DATABASE, null);
    }
}
