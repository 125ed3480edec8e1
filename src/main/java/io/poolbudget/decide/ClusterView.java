package io.poolbudget.decide;

import io.poolbudget.cache.InformerCaches;
import io.poolbudget.cache.WorkloadInterest;
import io.poolbudget.memory.SettledWorkloads;
import io.poolbudget.status.StatusAggregator;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.planning.TerminatingMarks;
import io.poolbudget.planning.Workload;
import io.poolbudget.planning.WorkloadCatalog;
import io.poolbudget.planning.Workloads;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One namespace as the informer caches show it on this pass: workloads, their scalers, the pods
 * and ConfigMaps the operator manages. Nothing here calls the API server, but to read a workload whole that a policy
 * has just started to read (see {@link WorkloadInterest}).
 */
public final class ClusterView implements WorkloadCatalog {
    private final Map<String, Deployment> deployments;
    private final Map<String, StatefulSet> statefulSets;
    private final List<Workloads.Scaler> scalers;
    private final Collection<Pod> pods;
    private final Map<String, ConfigMap> configMaps;
    private final SettledWorkloads settled;
    private final Instant now;

    ClusterView(Collection<Deployment> deployments, Collection<StatefulSet> statefulSets,
                Collection<HorizontalPodAutoscaler> hpas, Collection<Pod> pods, Collection<ConfigMap> configMaps) {
        this(deployments, statefulSets, hpas, pods, configMaps, new SettledWorkloads(), Instant.now());
    }

    ClusterView(Collection<Deployment> deployments, Collection<StatefulSet> statefulSets,
                Collection<HorizontalPodAutoscaler> hpas, Collection<Pod> pods, Collection<ConfigMap> configMaps,
                SettledWorkloads settled, Instant now) {
        this.settled = settled;
        this.now = now;
        this.deployments = byName(deployments);
        this.statefulSets = byName(statefulSets);
        this.scalers = hpas.stream().map(Workloads::scaler).filter(Objects::nonNull).toList();
        this.pods = List.copyOf(pods);
        this.configMaps = byName(configMaps);
    }

    /**
     * The policy's namespace, read from the informer caches directly rather than through JOSDK's
     * secondary-resource index: that index links a resource to the policies that existed when the
     * resource last changed, so an HPA created before its policy would be missed.
     */
    public static ClusterView of(Context<PoolPolicy> context, SettledWorkloads settled, Collection<PoolPolicy> neighbours,
                          Instant now) {
        String ns = context.getPrimaryResource().getMetadata().getNamespace();
        // the policy and its neighbours, whose targets a pass reads too (claims): each of their workloads whole
        List<PoolPolicy> readers = java.util.stream.Stream.concat(java.util.stream.Stream.of(context.getPrimaryResource()),
                neighbours.stream()).toList();
        List<Deployment> deployments = InformerCaches.workloads(context, Deployment.class, ns, readers);
        List<StatefulSet> statefulSets = InformerCaches.workloads(context, StatefulSet.class, ns, readers);
        settled.retain(ns, java.util.stream.Stream.concat(deployments.stream(), statefulSets.stream())
                .map(o -> o.getMetadata().getUid()).filter(Objects::nonNull).toList());
        return new ClusterView(deployments, statefulSets, InformerCaches.cached(context, HorizontalPodAutoscaler.class, ns),
                // pods and ConfigMaps: only those this policy sized
                context.getSecondaryResources(Pod.class), context.getSecondaryResources(ConfigMap.class), settled, now);
    }

    private static <T extends HasMetadata> Map<String, T> byName(Collection<T> items) {
        return items.stream().collect(Collectors.toMap(i -> i.getMetadata().getName(), Function.identity(), (a, b) -> a));
    }

    @Override
    public Optional<Workload> find(WorkloadKind kind, String namespace, String name) {
        return switch (kind) {
            case Deployment -> Optional.ofNullable(deployments.get(name)).map(d -> Workloads.of(d, scalers));
            case StatefulSet -> Optional.ofNullable(statefulSets.get(name)).map(s -> Workloads.of(s, scalers));
        };
    }

    @Override
    public List<Workload> select(WorkloadKind kind, String namespace, LabelSelector selector) {
        var all = kind == WorkloadKind.Deployment
                ? deployments.values().stream().map(d -> Workloads.of(d, scalers))
                : statefulSets.values().stream().map(s -> Workloads.of(s, scalers));
        return all.filter(w -> Workloads.matches(selector, w.labels())).sorted(Comparator.comparing(Workload::name)).toList();
    }

    public PodTemplateSpec template(Workload w) {
        return w.kind() == WorkloadKind.Deployment ? deployments.get(w.name()).getSpec().getTemplate()
                : statefulSets.get(w.name()).getSpec().getTemplate();
    }

    /** The policy's ConfigMap for the workload. */
    public ConfigMap configMap(Workload w, Owner owner) {
        return configMaps.get(owner.configMapName(w.kind(), w.name()));
    }

    /** The workload object itself, as cached. */
    public HasMetadata object(Workload w) {
        return w.kind() == WorkloadKind.Deployment ? deployments.get(w.name()) : statefulSets.get(w.name());
    }

    /**
     * Fully rolled out: the controller has seen the current spec, every replica is updated and
     * available, and no pod of an older revision (one carrying another pool size) is left.
     */
    public boolean rolledOut(Workload w, Owner owner, InjectionSpec spec, List<String> containers) {
        LabelSelector selector = selector(w);
        boolean controllerDone;
        if (w.kind() == WorkloadKind.Deployment) {
            Deployment d = deployments.get(w.name());
            int want = d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
            var st = d.getStatus();
            controllerDone = st != null && st.getObservedGeneration() != null
                    && st.getObservedGeneration() >= d.getMetadata().getGeneration()
                    && n(st.getUpdatedReplicas()) == want && n(st.getReplicas()) == want
                    && n(st.getAvailableReplicas()) >= want;
        } else {
            StatefulSet s = statefulSets.get(w.name());
            int want = s.getSpec().getReplicas() == null ? 1 : s.getSpec().getReplicas();
            var st = s.getStatus();
            controllerDone = st != null && st.getObservedGeneration() != null
                    && st.getObservedGeneration() >= s.getMetadata().getGeneration()
                    && Objects.equals(st.getCurrentRevision(), st.getUpdateRevision())
                    && n(st.getUpdatedReplicas()) == want && n(st.getReadyReplicas()) >= want;
        }
        if (!controllerDone || spec == null) {
            return controllerDone;
        }
        String current = Injection.revision(owner, spec, template(w), containers);
        return pods.stream().filter(p -> selector != null && Workloads.matches(selector, p.getMetadata().getLabels()))
                .noneMatch(p -> !Objects.equals(current,
                        Injection.podRevision(owner, spec, p.getMetadata(), p.getSpec(), containers)));
    }

    /**
     * What a workload's pods hold now: pods (terminating ones included), of them terminating, Σ pool sizes; of those
     * sizes, {@code atDefault} counted at the app's default for pods that carry no size (what such a pod may open, not
     * a size its spec declares); {@code departing}: the pools of pods the operator did not size that left the
     * workload's count and may still be shutting down, where the API server does not count terminating pods itself (not
     * in {@code poolSizes}: only an over-budget moment already reported waits for them, see StatusAggregator).
     */
    public record Live(int pods, int terminating, long poolSizes, long atDefault, long departing) {
        public long connections(long poolsPerPod) { return poolSizes * poolsPerPod; }
    }

    /**
     * The pools a workload's pods hold now, from the pods' own specs: the pods the operator labelled, read one by one
     * (terminating ones too: they hold their pool until the app exits); the workload's other pods, which the informer
     * does not cache (started before the operator first sized it, or from a template it did not size), counted from
     * its status (see {@link #unseen}) at the size its template gives them, else at the app's default.
     */
    public Live live(Workload w, Owner owner, InjectionSpec spec, List<String> containers) {
        int appDefault = Injection.appDefault(spec);
        PodTemplateSpec template = template(w);
        List<Pod> labelled = podsOf(w);
        long sizes = 0;
        long atDefault = 0;
        int terminating = 0;
        for (Pod p : labelled) {
            Integer held = Injection.heldSize(owner, spec, p.getMetadata(), p.getSpec(), containers);
            sizes += held == null ? appDefault : held;
            atDefault += held == null ? appDefault : 0;
            terminating += p.getMetadata().getDeletionTimestamp() != null ? 1 : 0;
        }
        boolean ours = owner.sized(template.getMetadata());
        var meta = object(w).getMetadata();
        Unseen unseen = ours && settled.contains(meta.getNamespace(), meta.getUid()) ? Unseen.NONE
                : unseen(w, ours, labelled, owner, spec, containers);
        if (ours && unseen.pods() == 0 && unseen.departing() == 0 && spec != null && rolledOut(w, owner, spec, containers)) {
            settled.settle(meta.getNamespace(), meta.getUid()); // every pod it runs now carries the marker
        } else if (!ours) {
            settled.unsettle(meta.getNamespace(), meta.getUid());
        }
        Integer templateHeld = ours ? null
                : Injection.heldSize(owner, spec, template.getMetadata(), template.getSpec(), containers);
        int unseenSize = templateHeld == null ? appDefault : templateHeld;
        sizes += (long) unseen.pods() * unseenSize;
        atDefault += templateHeld == null ? (long) unseen.pods() * appDefault : 0;
        return new Live(labelled.size() + unseen.pods(), terminating + unseen.terminating(), sizes, atDefault,
                (long) unseen.departing() * unseenSize);
    }

    /**
     * A workload's pods the informer does not cache (they carry no marker): how many, of them terminating, and
     * {@code departing}: those that may still be shutting down where the status cannot tell (not among the others).
     */
    private record Unseen(int pods, int terminating, int departing) {
        static final Unseen NONE = new Unseen(0, 0, 0);
    }

    /**
     * The workload's unmarked pods. A Deployment's status counts no terminating pod in its replicas, so an unmarked pod
     * leaves that count when it is told to stop while it may hold its pool until it exits: such pods are remembered
     * from the pass that sees them leave ({@link SettledWorkloads#departing}), and counted while the status's
     * {@code terminatingReplicas} (Kubernetes 1.35, or its feature gate) still counts them, or, where the status has no
     * such count, as departing until their grace period is over. A StatefulSet's replicas include terminating pods.
     */
    private Unseen unseen(Workload w, boolean ours, List<Pod> labelled, Owner owner, InjectionSpec spec,
                          List<String> containers) {
        PodTemplateSpec template = template(w);
        int running = unmarked(w, ours, labelled, owner, spec, containers);
        if (!(object(w) instanceof Deployment d) || d.getStatus() == null) {
            return new Unseen(running, 0, 0);
        }
        var meta = d.getMetadata();
        int left = settled.departing(meta.getNamespace(), meta.getUid(), running, now, gracePeriod(template));
        Integer counted = d.getStatus().getTerminatingReplicas();
        if (counted == null) {
            return new Unseen(running, 0, left);
        }
        int labelledTerminating = (int) labelled.stream().filter(p -> p.getMetadata().getDeletionTimestamp() != null).count();
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
        HasMetadata o = object(w);
        long generation = o.getMetadata().getGeneration() == null ? 0 : o.getMetadata().getGeneration();
        Long observed;
        int replicas;
        int updated;
        if (o instanceof Deployment d) {
            if (d.getStatus() == null) {
                return 0;
            }
            observed = d.getStatus().getObservedGeneration();
            replicas = n(d.getStatus().getReplicas());
            updated = n(d.getStatus().getUpdatedReplicas());
        } else {
            var st = ((StatefulSet) o).getStatus();
            if (st == null) {
                return 0;
            }
            observed = st.getObservedGeneration();
            replicas = n(st.getReplicas());
            updated = n(st.getUpdatedReplicas());
        }
        if (!ours) {
            return Math.max(0, replicas - labelled.size());
        }
        String newest = currentRevision(labelled, owner, spec, containers, template(w));
        int outside = (int) labelled.stream().filter(p -> !Objects.equals(newest, revision(p))
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
        String size = spec == null ? null : Injection.revision(owner, spec, template, containers);
        return pods.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null && revision(p) != null
                        && (spec == null || Objects.equals(size, Injection.podRevision(owner, spec, p.getMetadata(),
                        p.getSpec(), containers))))
                .max(Comparator.comparing((Pod p) -> created(p)).thenComparing(p -> p.getMetadata().getName()))
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
    public int runningHolds(Workload w, Owner owner, InjectionSpec spec, List<String> containers) {
        int appDefault = Injection.appDefault(spec);
        int most = 0;
        for (Pod p : podsOf(w)) {
            if (p.getMetadata().getDeletionTimestamp() == null) {
                Integer held = Injection.heldSize(owner, spec, p.getMetadata(), p.getSpec(), containers);
                most = Math.max(most, held == null ? appDefault : held);
            }
        }
        PodTemplateSpec template = template(w);
        boolean ours = owner.sized(template.getMetadata());
        var meta = object(w).getMetadata();
        if (!(ours && settled.contains(meta.getNamespace(), meta.getUid())) && unmarked(w, ours, podsOf(w), owner, spec, containers) > 0) {
            Integer templateHeld = ours ? null
                    : Injection.heldSize(owner, spec, template.getMetadata(), template.getSpec(), containers);
            most = Math.max(most, templateHeld == null ? appDefault : templateHeld);
        }
        return most;
    }

    /** Why the rollout of the workload's current pool size is not progressing (see {@link RolloutHealth}), or null. */
    public String stalled(Workload w, Owner owner, InjectionSpec spec, List<String> containers, boolean reported) {
        String current = spec == null ? null : Injection.revision(owner, spec, template(w), containers);
        return RolloutHealth.stalled(object(w), podsOf(w).stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null
                && Objects.equals(current, Injection.podRevision(owner, spec, p.getMetadata(), p.getSpec(), containers)))
                .toList(), reported);
    }

    /** The workload's labelled pods that are shutting down now (they still hold their pools). */
    @Override
    public int terminatingNow(Workload w) {
        return (int) podsOf(w).stream().filter(p -> p.getMetadata().getDeletionTimestamp() != null).count();
    }

    /**
     * The old pods of a rollout that overlap its new ones: the labelled pods terminating now whose revision
     * (pod-template-hash, or a StatefulSet's controller-revision-hash) is not that of the newest running pod. Pods a
     * scale-down removes carry the revision of the pods that stay, and are not counted. Null without a running pod.
     */
    @Override
    public TerminatingMarks.Overlap rolloutOverlap(Workload w) {
        List<Pod> own = podsOf(w);
        Pod newest = own.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null && revision(p) != null)
                .max(Comparator.comparing((Pod p) -> created(p)).thenComparing(p -> p.getMetadata().getName()))
                .orElse(null);
        if (newest == null) {
            return null;
        }
        String current = revision(newest);
        int old = (int) own.stream().filter(p -> p.getMetadata().getDeletionTimestamp() != null && revision(p) != null
                && !current.equals(revision(p))).count();
        return new TerminatingMarks.Overlap(current, old);
    }

    private static String revision(Pod p) {
        var labels = p.getMetadata().getLabels();
        if (labels == null) {
            return null;
        }
        String hash = labels.get("pod-template-hash");
        return hash != null ? hash : labels.get("controller-revision-hash");
    }

    private static Instant created(Pod p) {
        String t = p.getMetadata().getCreationTimestamp();
        return t == null ? Instant.EPOCH : Instant.parse(t);
    }

    /** The addresses of the workload's labelled pods, terminating ones too (they hold connections until they exit). */
    public Set<String> podIps(Workload w) {
        return podsOf(w).stream().filter(p -> p.getStatus() != null && p.getStatus().getPodIP() != null)
                .map(p -> p.getStatus().getPodIP()).collect(Collectors.toSet());
    }

    /** The labelled pods the workload's selector matches. */
    private List<Pod> podsOf(Workload w) {
        LabelSelector selector = selector(w);
        return selector == null ? List.of()
                : pods.stream().filter(p -> Workloads.matches(selector, p.getMetadata().getLabels())).toList();
    }

    /** The quickest creation-to-Ready of the workload's labelled running pods, in seconds; null if none is Ready. */
    @Override
    public Integer observedReadySeconds(Workload w) {
        LabelSelector selector = selector(w);
        Long quickest = null;
        for (Pod p : pods) {
            if (p.getMetadata().getDeletionTimestamp() != null || selector == null
                    || !Workloads.matches(selector, p.getMetadata().getLabels()) || p.getStatus() == null
                    || p.getStatus().getConditions() == null || p.getMetadata().getCreationTimestamp() == null) {
                continue;
            }
            for (var c : p.getStatus().getConditions()) {
                if ("Ready".equals(c.getType()) && "True".equals(c.getStatus()) && c.getLastTransitionTime() != null) {
                    long s = Duration.between(Instant.parse(p.getMetadata().getCreationTimestamp()),
                            Instant.parse(c.getLastTransitionTime())).toSeconds();
                    quickest = quickest == null ? s : Math.min(quickest, s);
                }
            }
        }
        return quickest == null ? null : (int) Math.max(0, Math.min(Integer.MAX_VALUE, quickest));
    }

    private LabelSelector selector(Workload w) {
        return w.kind() == WorkloadKind.Deployment ? deployments.get(w.name()).getSpec().getSelector()
                : statefulSets.get(w.name()).getSpec().getSelector();
    }

    /** A Deployment paused with {@code kubectl rollout pause}: its template changes do not roll out. */
    public boolean paused(Workload w) {
        return w.kind() == WorkloadKind.Deployment && Boolean.TRUE.equals(deployments.get(w.name()).getSpec().getPaused());
    }

    private static int n(Integer value) {
        return value == null ? 0 : value;
    }
}
