package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.planning.Workload;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * What a workload's pods hold now, counted from the pods the operator marked (cached one by one) and, for the others
 * (started before it sized the workload, or from a template it did not size), from the workload's status, with what
 * this process remembers of them ({@link SettledWorkloads}). Part of a {@link ClusterView}.
 */
final class PodCounts {
    private final ClusterView view;
    private final SettledWorkloads settled;
    private final Instant now;

    PodCounts(ClusterView view, SettledWorkloads settled, Instant now) {
        this.view = view;
        this.settled = settled;
        this.now = now;
    }

    /**
     * What a workload's pods hold now: pods (terminating ones included), of them terminating, and the connections they
     * hold (each pod's pool size × its pools per pod); of those, {@code atDefault} counted at the app's default for pods
     * that carry no size (what such a pod may open, not a size its spec declares); {@code departing}: the connections of
     * pods the operator did not size that left the workload's count and may still be shutting down, where the API
     * server does not count terminating pods itself (not in {@code connections}: only an over-budget moment already
     * reported waits for them, see StatusAggregator). {@code atDefaultPods}: the pods counted at the app's default;
     * {@code anyNumber} ({@code departingAnyNumber}): where the app has no pool limit without its variable, whether any
     * pod counted (departing) is one of them: then what they may open is any number, whatever the sum says
     * ({@link io.poolbudget.sizing.Limits#noPoolLimit}).
     */
    record Live(int pods, int terminating, long connections, long atDefault, long departing, int atDefaultPods,
            boolean anyNumber, boolean departingAnyNumber) {}

    /**
     * The connections a workload's pods hold now, from the pods' own specs: the pods the operator labelled, read one by
     * one, each at its own size and its own pools per pod (terminating ones too: they hold their pools until the app
     * exits); the workload's other pods, which the informer does not cache (started before the operator first sized
     * it, or from a template it did not size), counted from its status (see {@link #unseen}) at the size and pools per
     * pod its template gives them, else at the app's default.
     */
    Live live(Workload w, Owner owner, InjectionSpec spec, List<String> containers, PoolsPerPod pools) {
        int appDefault = Injection.appDefault(spec);
        PodTemplateSpec template = view.template(w);
        List<Pod> labelled = view.podsOf(w);
        long connections = 0;
        long atDefault = 0;
        int atDefaultPods = 0;
        int terminating = 0;
        for (Pod p : labelled) {
            Integer held = view.podHeld(p, owner, spec, containers);
            long each = pools.of(p.getSpec());
            connections += (held == null ? appDefault : held) * each;
            atDefault += held == null ? appDefault * each : 0;
            atDefaultPods += held == null ? 1 : 0;
            terminating += p.getMetadata().getDeletionTimestamp() != null ? 1 : 0;
        }
        boolean ours = owner.sized(template.getMetadata());
        var meta = view.object(w).getMetadata();
        Unseen unseen = ours && settled.contains(meta.getNamespace(), meta.getUid()) ? Unseen.NONE
                : unseen(w, ours, labelled, owner, spec, containers);
        if (ours && unseen.pods() == 0 && unseen.departing() == 0 && spec != null
                && view.rolledOut(w, owner, spec, containers)) {
            settled.settle(meta.getNamespace(), meta.getUid()); // every pod it runs now carries the marker
        } else if (!ours) {
            settled.unsettle(meta.getNamespace(), meta.getUid());
        }
        Integer templateHeld = ours ? null
                : InjectionReads.heldSize(owner, spec, template.getMetadata(), template.getSpec(), containers);
        // their specs are not cached: at the template's pools per pod
        long unseenEach = (long) (templateHeld == null ? appDefault : templateHeld) * pools.of(template.getSpec());
        connections += unseen.pods() * unseenEach;
        atDefault += templateHeld == null ? unseen.pods() * unseenEach : 0;
        atDefaultPods += templateHeld == null ? unseen.pods() : 0;
        boolean noLimit = io.poolbudget.sizing.Limits.noPoolLimit(appDefault);
        return new Live(labelled.size() + unseen.pods(), terminating + unseen.terminating(), connections, atDefault,
                unseen.departing() * unseenEach, atDefaultPods, noLimit && atDefaultPods > 0,
                noLimit && templateHeld == null && unseen.departing() > 0);
    }

    /**
     * A workload's pods the informer does not cache (they carry no marker): how many, of them terminating, and
     * {@code departing}: those that may still be shutting down where the status cannot tell (not among the others).
     */
    private record Unseen(int pods, int terminating, int departing) {
        static final Unseen NONE = new Unseen(0, 0, 0);
    }

    /**
     * The workload's unmarked pods. A Deployment's or Argo Rollout's status counts no terminating pod in its replicas (those
     * are its ReplicaSets' counts), so an unmarked pod
     * leaves that count when it is told to stop while it may hold its pool until it exits: such pods are remembered
     * from the pass that sees them leave ({@link SettledWorkloads#departing}), and counted while the status's
     * {@code terminatingReplicas} (Kubernetes 1.35, or its feature gate) still counts them, or, where the status has no
     * such count (a Rollout's never has), as departing until their grace period is over. A StatefulSet's replicas
     * include terminating pods.
     */
    private Unseen unseen(Workload w, boolean ours, List<Pod> labelled, Owner owner, InjectionSpec spec,
            List<String> containers) {
        PodTemplateSpec template = view.template(w);
        int running = unmarked(w, ours, labelled, owner, spec, containers);
        HasMetadata o = view.object(w);
        // a Deployment's and an Argo Rollout's pods are their ReplicaSets', whose count leaves terminating pods out
        boolean replicaSets = o instanceof Deployment d ? d.getStatus() != null
                : o instanceof io.poolbudget.api.argo.ArgoRollout r && r.getStatus() != null;
        if (!replicaSets) {
            return new Unseen(running, 0, 0);
        }
        var meta = o.getMetadata();
        int left = settled.departing(meta.getNamespace(), meta.getUid(), running, now, gracePeriod(template));
        Integer counted = o instanceof Deployment d ? d.getStatus().getTerminatingReplicas() : null;
        if (counted == null) {
            return new Unseen(running, 0, left);
        }
        int labelledTerminating = (int) labelled.stream().filter(p -> p.getMetadata().getDeletionTimestamp() != null)
                .count();
        int terminating = Math.min(left, Math.max(0, counted - labelledTerminating));
        return new Unseen(running + terminating, terminating, 0);
    }

    /**
     * The workload's unmarked pods its status counts (a Deployment's running ones; a StatefulSet's, terminating ones
     * too). Where the status has seen the current template and the template carries the marker, every unmarked pod
     * belongs to an older revision: they are the status's pods outside its updated ones, less the marked pods of older
     * revisions (and, for a StatefulSet, the terminating ones). Counted from one snapshot of the status, they do not
     * dip when the informer sees a new pod before the status counts it (issue 41: an all-clear at 6 of 12 while 16
     * were held). A status that has not seen the current template yet counts no pod of it: then only the marked pods of
     * older revisions are taken out. Where the template does not carry the marker: the status's pods less every marked
     * pod (one that began terminating may still be counted by the status: it is taken out once, not counted twice).
     */
    private int unmarked(Workload w, boolean ours, List<Pod> labelled, Owner owner, InjectionSpec spec,
            List<String> containers) {
        HasMetadata o = view.object(w);
        long generation = o.getMetadata().getGeneration() == null ? 0 : o.getMetadata().getGeneration();
        var counts = WorkloadShapes.counts(o, w);
        if (counts == null) {
            return 0;
        }
        Long observed = counts.observed();
        int replicas = counts.replicas();
        int updated = counts.updated();
        if (!ours || o instanceof io.fabric8.kubernetes.api.model.batch.v1.CronJob) {
            // a CronJob's running Jobs keep the template they started with: any of their pods not marked is unmarked
            return Math.max(0, replicas - labelled.size());
        }
        String newest = currentRevision(labelled, owner, spec, containers, view.template(w));
        int outside = (int) labelled.stream().filter(p -> !Objects.equals(newest, ClusterView.revision(p))
                || (o instanceof StatefulSet && p.getMetadata().getDeletionTimestamp() != null)).count();
        // a status that has not seen the current template counts none of its pods, though the informer may hold some
        boolean current = observed != null && observed >= generation;
        return Math.max(0, replicas - (current ? updated : 0) - outside);
    }

    /**
     * The template hash of the workload's current revision, as its marked pods show it: that of the newest running one
     * that carries the template's pool size (a change of image alone makes a revision of the same size); null when none
     * does yet.
     */
    private static String currentRevision(List<Pod> pods, Owner owner, InjectionSpec spec, List<String> containers,
            PodTemplateSpec template) {
        String size = spec == null ? null : InjectionReads.revision(owner, spec, template, containers);
        return pods
                .stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null && ClusterView.revision(p) != null
                        && (spec == null || Objects.equals(size,
                                InjectionReads.podRevision(owner, spec, p.getMetadata(),
                                        p.getSpec(), containers))))
                .max(Comparator.comparing((Pod p) -> ClusterView.created(p))
                        .thenComparing(p -> p.getMetadata().getName()))
                .map(ClusterView::revision).orElse(null);
    }

    /** How long a pod of the template may take to stop once told to: terminationGracePeriodSeconds, 30 by default. */
    private static Duration gracePeriod(PodTemplateSpec template) {
        Long seconds = template.getSpec() == null ? null : template.getSpec().getTerminationGracePeriodSeconds();
        return Duration.ofSeconds(seconds == null ? 30 : Math.max(0, seconds));
    }

    /**
     * The largest pool one of the workload's running pods holds: its marked pods' sizes, and its unmarked running
     * pods at their template's size or the app's default; 0 when it runs none.
     */
    int runningHolds(Workload w, Owner owner, InjectionSpec spec, List<String> containers) {
        int appDefault = Injection.appDefault(spec);
        int most = 0;
        for (Pod p : view.podsOf(w)) {
            if (p.getMetadata().getDeletionTimestamp() == null) {
                Integer held = view.podHeld(p, owner, spec, containers);
                most = Math.max(most, held == null ? appDefault : held);
            }
        }
        PodTemplateSpec template = view.template(w);
        boolean ours = owner.sized(template.getMetadata());
        var meta = view.object(w).getMetadata();
        if (!(ours && settled.contains(meta.getNamespace(), meta.getUid()))
                && unmarked(w, ours, view.podsOf(w), owner, spec, containers) > 0) {
            Integer templateHeld = ours ? null
                    : InjectionReads.heldSize(owner, spec, template.getMetadata(), template.getSpec(), containers);
            most = Math.max(most, templateHeld == null ? appDefault : templateHeld);
        }
        return most;
    }
}
