package io.poolbudget.decide;

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
record LivePods(int pods, int confirmed, List<Pending> pending) {
    /** A pod that does not hold the size yet; {@code since}: epoch ms its agent was first found not confirming it. */
    record Pending(String pod, String reason, long since, boolean terminating) {}

    static LivePods of(ClusterView view, Workload w, Owner owner, InjectionSpec spec, List<String> containers,
            int size) {
        String current = Injection.revision(owner, spec, view.template(w), containers);
        List<Pending> pending = new ArrayList<>();
        int confirmed = 0;
        List<Pod> pods = view.podsOf(w);
        for (Pod p : pods) {
            Integer published = LiveResize.published(p.getMetadata(), owner);
            AgentReport r = view.report(p);
            boolean confirmedAt = r != null && r.confirmed() && Objects.equals(r.published(), size)
                    && Objects.equals(published, size);
            boolean startedAt = Objects.equals(Injection.heldSize(owner, spec, p.getMetadata(), p.getSpec(),
                    containers), size)
                    && Objects.equals(current, Injection.podRevision(owner, spec, p.getMetadata(), p.getSpec(),
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
        return new LivePods(pods.size(), confirmed, List.copyOf(pending));
    }

    /** The running pods that have not confirmed the size within {@code deadlineMs} of being asked to. */
    List<Pending> overdue(long nowMs, long deadlineMs) {
        return pending.stream().filter(p -> !p.terminating() && p.since() > 0 && nowMs - p.since() >= deadlineMs)
                .toList();
    }

    /** When the first pending pod reaches the deadline (epoch ms), or 0 when none is waited for. */
    long nextDeadline(long deadlineMs) {
        return pending.stream().filter(p -> !p.terminating() && p.since() > 0).mapToLong(p -> p.since() + deadlineMs)
                .min().orElse(0);
    }

    /** The pending pods as status shows them: the first few, each with why. */
    List<String> describe() {
        return pending.stream().limit(5).map(p -> p.pod() + ": " + p.reason()).toList();
    }
}
