package io.poolbudget.sizing;

import java.util.ArrayList;
import java.util.List;

/** The words of a {@link TransitionPeaks.Note}: what may be held, by which pods, and what avoids it. */
final class TransitionWords {
    private TransitionWords() {}

    static String text(Transition t, long peak, long noOverlap, long others, long budget, TransitionPeaks.Live live,
            TransitionPeaks.Alternative alternative) {
        String id = t.target().id();
        StringBuilder out = new StringBuilder("lowering ").append(id).append(' ').append(t.oldSize()).append(" → ")
                .append(t.newSize()).append(' ').append(how(t.target().rollout())).append(" may hold up to ")
                .append(peak).append(" of the budget's ").append(budget).append(" connections while it rolls");
        if (others > 0) {
            out.append(", ").append(t.peak()).append(" of them its own beside the ").append(others)
                    .append(" the other targets hold");
        }
        out.append(": ").append(pods(t));
        if (noOverlap < peak) {
            out.append("; ").append(noOverlap).append(" where each old pod closes its pool before its replacement "
                    + "opens one");
        }
        List<String> avoid = new ArrayList<>();
        if (live == TransitionPeaks.Live.OFFER) {
            avoid.add("spec.injection.resize: Live lowers its running pods' pools in place, with no new pods");
        } else if (live == TransitionPeaks.Live.AGENT_COMING) {
            avoid.add("resize: Live takes its later sizes in place, and this rollout adds its agent");
        }
        if (alternative != null) {
            String with = "maxSurge: 0 on it (maxUnavailable " + alternative.maxUnavailable() + ")";
            avoid.add(alternative.size() >= t.oldSize()
                    ? with + " would plan it pool " + alternative.size() + ", no lower than its pods hold: nothing to "
                            + "roll out"
                    : alternative.peak() <= budget
                            ? with + " keeps it within the budget: up to " + alternative.peak() + " (pool "
                                    + alternative.size() + ")"
                            : with + " avoids the surge pods: up to " + alternative.peak() + (alternative
                                    .noOverlap() < alternative.peak() ? ", " + alternative.noOverlap()
                                            + " where each old pod closes its pool first" : "")
                                    + " (pool " + alternative.size() + ")");
        }
        if (!avoid.isEmpty()) {
            out.append(". To avoid it: ").append(avoid.get(0));
            avoid.subList(1, avoid.size()).forEach(a -> out.append("; or ").append(a));
        }
        return out.toString();
    }

    private static String how(Rollout rollout) {
        if (rollout instanceof Rollout.RollingUpdate) {
            return "by a rolling update";
        }
        if (rollout instanceof Canary c) {
            return c.trafficRouted() ? "by an Argo Rollouts canary with traffic routing" : "by an Argo Rollouts canary";
        }
        if (rollout instanceof BlueGreen) {
            return "by an Argo Rollouts blue-green rollout";
        }
        return rollout instanceof Batch ? "for its next Jobs" : "by a rollout";
    }

    /** The pods at the peak: "2 old pods at pool 2, 1 of them shutting down, beside 2 new at pool 1 (...)". */
    private static String pods(Transition t) {
        Transition.Mix m = t.at();
        Rollout rollout = t.target().rollout();
        String old = pool(t, t.oldSize());
        String young = pool(t, t.newSize());
        if (rollout instanceof BlueGreen b) {
            return count(m.oldPods(), "active pod") + " at " + old + " beside " + count(m.newPods(), "preview pod")
                    + " at " + young + ", until scaleDownDelaySeconds " + b.scaleDownDelaySeconds()
                    + " after the switch";
        }
        if (rollout instanceof Canary c && c.trafficRouted()) {
            return count(m.oldPods(), "stable pod") + " at " + old + " beside " + count(m.newPods(), "canary pod")
                    + " at " + young;
        }
        if (rollout instanceof Batch) {
            return count(m.oldPods(), "pod") + " of Jobs started before the change, which keep " + old
                    + " until they end";
        }
        long replacements = m.newPods() - m.surgePods();
        String which = m.surgePods() == 0 ? count(replacements, "replacement")
                : replacements == 0 ? count(m.surgePods(), "surge pod")
                        : count(m.surgePods(), "surge pod") + ", " + count(replacements, "replacement");
        return count(m.oldPods(), "old pod") + " at " + old + (m.shuttingDown() > 0 ? ", " + m.shuttingDown()
                + " of them shutting down," : "") + " beside " + m.newPods() + " new at " + young + " (" + which
                + ")";
    }

    private static String pool(Transition t, int size) {
        int pools = t.target().poolsPerPod();
        return "pool " + size + (pools == 1 ? "" : " × " + pools + " pools");
    }

    private static String count(long n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }
}
