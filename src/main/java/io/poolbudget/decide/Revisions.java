package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.fabric8.kubernetes.api.model.Pod;
import io.poolbudget.planning.TerminatingMarks;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** A workload's pods by revision: which revision each carries, and which old pods overlap a rollout's new ones. */
final class Revisions {
    private Revisions() {}

    /**
     * The old pods of a rollout that overlap its new ones: the labelled pods terminating now whose revision
     * (pod-template-hash, or a StatefulSet's controller-revision-hash) is not that of the newest running pod. Pods a
     * scale-down removes carry the revision of the pods that stay, and are not counted. Nor are the pods of a revision
     * that the operator's own write superseded within the rollout: a user's template change that changes the plan
     * (pools per pod, say) starts a revision at the old pool sizes, the operator's write of the new ones replaces it at
     * once, and the controller removes that revision's pods all together, not a step at a time: that says nothing of how
     * long a shutdown takes. They are the old pods that carry other pool sizes than the newest running pod (the
     * operator's size and hash annotations, of every policy) and are not of the revision the rollout started from, that
     * of its oldest old pod. Nor more of them than there are new pods running (not terminating): an old pod overlaps the
     * rollout only where a new pod stands in its place (one whose replacement does not run yet adds no pod above the
     * replicas), so old pods a scale-down removed as the rollout starts (an HPA's maximum lowered changes the plan, and
     * the operator's write starts a rollout as the HPA scales down) are not counted as its overlap. A rollout whose old
     * pods outlast its steps still counts each of them once its replacement runs. Null without a running pod.
     */
    static TerminatingMarks.Overlap overlap(List<Pod> own) {
        Comparator<Pod> age = Comparator.comparing((Pod p) -> created(p)).thenComparing(p -> p.getMetadata().getName());
        Pod newest = own.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null && revision(p) != null)
                .max(age).orElse(null);
        if (newest == null) {
            return null;
        }
        String current = revision(newest);
        List<Pod> old = own.stream().filter(p -> revision(p) != null && !current.equals(revision(p))).toList();
        String from = old.stream().min(age).map(Revisions::revision).orElse(null);
        Map<String, String> sizes = sizes(newest);
        int counted = (int) old.stream().filter(p -> p.getMetadata().getDeletionTimestamp() != null
                && (revision(p).equals(from) || sizes(p).equals(sizes))).count();
        // an old pod overlaps the rollout only where a new pod stands in its place: the rest were scaled down
        int replacing = (int) own.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null
                && current.equals(revision(p))).count();
        return new TerminatingMarks.Overlap(current, Math.min(counted, replacing));
    }

    /** The pool sizes a pod was started with, as the operator wrote them: its size and hash annotations, every policy's. */
    private static Map<String, String> sizes(Pod p) {
        Map<String, String> annotations = p.getMetadata().getAnnotations();
        return annotations == null ? Map.of() : new java.util.TreeMap<>(annotations.entrySet().stream()
                .filter(e -> e.getValue() != null
                        && (e.getKey().startsWith(Owner.SIZE_PREFIX) || e.getKey().startsWith(Owner.HASH_PREFIX)))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    }

    static String revision(Pod p) {
        var labels = p.getMetadata().getLabels();
        if (labels == null) {
            return null;
        }
        String hash = labels.get("pod-template-hash");
        hash = hash != null ? hash : labels.get("rollouts-pod-template-hash"); // an Argo Rollout's
        return hash != null ? hash : labels.get("controller-revision-hash");
    }

    static Instant created(Pod p) {
        String t = p.getMetadata().getCreationTimestamp();
        return t == null ? Instant.EPOCH : Instant.parse(t);
    }
}
