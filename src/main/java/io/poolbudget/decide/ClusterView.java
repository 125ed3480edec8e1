package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.poolbudget.api.v1alpha1.InjectionSpec;
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
import java.util.function.Function;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One namespace as the informer caches show it on this pass: workloads, their scalers, the pods
 * and ConfigMaps the operator manages. Nothing here calls the API server, but to read a workload whole that a policy
 * has just started to read (see {@link WorkloadInterest}).
 */
public final class ClusterView implements WorkloadCatalog {
    /** The workloads of each kind, by name (a kind the operator does not watch has none). */
    private final Map<WorkloadKind, Map<String, HasMetadata>> objects = new java.util.EnumMap<>(WorkloadKind.class);
    private final Map<WorkloadKind, String> unwatched = new java.util.EnumMap<>(WorkloadKind.class);
    private final List<Workloads.Scaler> scalers;
    private final Collection<Pod> pods;
    private final Map<String, ConfigMap> configMaps;
    private final PodCounts counts;
    private final Instant now;
    /** The agents' last reports, by pod uid (resize mode Live); empty elsewhere. */
    private Map<String, AgentReport> reports = Map.of();
    /** The namespace's PodDisruptionBudgets; none where not read. */
    private Collection<io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget> disruptionBudgets = List.of();
    private List<String> heldElsewhere = List.of();

    public ClusterView(Collection<Deployment> deployments, Collection<StatefulSet> statefulSets,
            Collection<HorizontalPodAutoscaler> hpas, Collection<Pod> pods, Collection<ConfigMap> configMaps) {
        this(deployments, statefulSets, hpas, pods, configMaps, new SettledWorkloads(), Instant.now());
    }

    public ClusterView(Collection<Deployment> deployments, Collection<StatefulSet> statefulSets,
            Collection<HorizontalPodAutoscaler> hpas, Collection<Pod> pods, Collection<ConfigMap> configMaps,
            SettledWorkloads settled, Instant now) {
        this.counts = new PodCounts(this, settled, now);
        this.now = now;
        objects.put(WorkloadKind.Deployment, byName(deployments));
        objects.put(WorkloadKind.StatefulSet, byName(statefulSets));
        this.scalers = hpas.stream().map(Workloads::scaler).filter(Objects::nonNull).toList();
        this.pods = List.copyOf(pods);
        this.configMaps = configMaps.stream()
                .collect(Collectors.toMap(c -> c.getMetadata().getName(), Function.identity(), (a, b) -> a));
    }

    @Override
    public Instant now() {
        return now;
    }

    /** This view with the workloads of one more kind (Argo Rollouts, CronJobs) as cached. */
    public ClusterView with(WorkloadKind kind, Collection<? extends HasMetadata> workloads) {
        objects.put(kind, byName(workloads));
        return this;
    }

    /**
     * This view, where the operator does not watch {@code kind}: a target of that kind is refused with {@code why}
     * (naming the fix), never reported as a workload that does not exist.
     */
    public ClusterView unwatched(WorkloadKind kind, String why) {
        unwatched.put(kind, why);
        return this;
    }

    private Map<String, HasMetadata> objects(WorkloadKind kind) {
        if (unwatched.containsKey(kind)) {
            throw new io.poolbudget.planning.InvalidPolicyException("spec.targets", unwatched.get(kind));
        }
        return objects.getOrDefault(kind, Map.of());
    }

    /** This view with the namespace's PodDisruptionBudgets, as cached. */
    public ClusterView withDisruptionBudgets(
            Collection<io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget> budgets) {
        this.disruptionBudgets = List.copyOf(budgets);
        return this;
    }

    @Override
    public List<io.poolbudget.sizing.Disruption> disruptions(Workload w) {
        return io.poolbudget.planning.Disruptions.selecting(disruptionBudgets, w.namespace(), template(w));
    }

    /** This view with what the agents of live-mode pods last reported (by pod uid). */
    public ClusterView withReports(Map<String, AgentReport> reports) {
        this.reports = Map.copyOf(reports);
        return this;
    }

    /**
     * This view with what holds connections of the budget outside the pods (the ghosts a gone pod left at the
     * database, spec.database.observe): raises wait while it does.
     */
    public ClusterView withHeldElsewhere(List<String> held) {
        this.heldElsewhere = List.copyOf(held);
        return this;
    }

    List<String> heldElsewhere() {
        return heldElsewhere;
    }

    /** The labelled pods of the workload the cache has now, terminating ones too. */
    public List<Pod> pods(Workload w) {
        return podsOf(w);
    }

    AgentReport report(Pod p) {
        String uid = p.getMetadata().getUid();
        return uid == null ? null : reports.get(uid);
    }

    /**
     * The pool size a pod holds: what it started with (its annotation or variable), or in resize mode Live what its
     * agent confirmed, counted at max(old, new) while a change is in flight ({@link LiveResize#held}).
     */
    Integer podHeld(Pod p, Owner owner, InjectionSpec spec, List<String> containers) {
        Integer started = InjectionReads.heldSize(owner, spec, p.getMetadata(), p.getSpec(), containers);
        Integer published = LiveResize.published(p.getMetadata(), owner);
        AgentReport report = report(p);
        return published == null && report == null ? started : LiveResize.held(started, published, report);
    }

    private static Map<String, HasMetadata> byName(Collection<? extends HasMetadata> items) {
        return items.stream().collect(
                Collectors.toMap(i -> i.getMetadata().getName(), i -> (HasMetadata) i, (a, b) -> a));
    }

    @Override
    public Optional<Workload> find(WorkloadKind kind, String namespace, String name) {
        return Optional.ofNullable(objects(kind).get(name)).map(o -> WorkloadShapes.workload(o, scalers));
    }

    @Override
    public List<Workload> select(WorkloadKind kind, String namespace, LabelSelector selector) {
        return objects(kind).values().stream().map(o -> WorkloadShapes.workload(o, scalers))
                .filter(w -> Workloads.matches(selector, w.labels())).sorted(Comparator.comparing(Workload::name))
                .toList();
    }

    public PodTemplateSpec template(Workload w) {
        PodTemplateSpec template = WorkloadShapes.template(object(w));
        return template == null ? new PodTemplateSpec() : template;
    }

    /** The policy's ConfigMap for the workload. */
    public ConfigMap configMap(Workload w, Owner owner) {
        return configMaps.get(owner.configMapName(w.kind(), w.name()));
    }

    /** The workload object itself, as cached. */
    public HasMetadata object(Workload w) {
        return objects(w.kind()).get(w.name());
    }

    /**
     * Fully rolled out: the controller has seen the current spec, every replica is updated and
     * available, and no pod of an older revision (one carrying another pool size) is left.
     */
    public boolean rolledOut(Workload w, Owner owner, InjectionSpec spec, List<String> containers) {
        boolean controllerDone = controllerDone(w);
        if (!controllerDone || spec == null) {
            return controllerDone;
        }
        String current = InjectionReads.revision(owner, spec, template(w), containers);
        return podsOf(w).stream().noneMatch(p -> !Objects.equals(current,
                InjectionReads.podRevision(owner, spec, p.getMetadata(), p.getSpec(), containers)));
    }

    /** The workload's controller has seen its current spec and every replica is updated and available. */
    boolean controllerDone(Workload w) {
        return WorkloadShapes.controllerDone(object(w));
    }

    /** What the workload's pods hold now, a pool each (see {@link PodCounts#live}). */
    public PodCounts.Live live(Workload w, Owner owner, InjectionSpec spec, List<String> containers) {
        return live(w, owner, spec, containers, PoolsPerPod.same(1));
    }

    /** What the workload's pods hold now, each at its own pools per pod (see {@link PodCounts#live}). */
    public PodCounts.Live live(Workload w, Owner owner, InjectionSpec spec, List<String> containers,
            PoolsPerPod pools) {
        return counts.live(w, owner, spec, containers, pools);
    }

    /** The largest pool one of the workload's running pods holds (see {@link PodCounts#runningHolds}). */
    public int runningHolds(Workload w, Owner owner, InjectionSpec spec, List<String> containers) {
        return counts.runningHolds(w, owner, spec, containers);
    }

    /** Why the rollout of the workload's current pool size is not progressing (see {@link RolloutHealth}), or null. */
    public String stalled(Workload w, Owner owner, InjectionSpec spec, List<String> containers, boolean reported) {
        String current = spec == null ? null : InjectionReads.revision(owner, spec, template(w), containers);
        return RolloutHealth.stalled(object(w), podsOf(w)
                .stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null
                        && Objects.equals(current,
                                InjectionReads.podRevision(owner, spec, p.getMetadata(), p.getSpec(), containers)))
                .toList(), reported);
    }

    /** The workload's labelled pods that are shutting down now (they still hold their pools). */
    @Override
    public int terminatingNow(Workload w) {
        return (int) podsOf(w).stream().filter(p -> p.getMetadata().getDeletionTimestamp() != null).count();
    }

    /** The old pods of the workload's rollout that overlap its new ones ({@link Revisions#overlap}). */
    @Override
    public TerminatingMarks.Overlap rolloutOverlap(Workload w) {
        return Revisions.overlap(podsOf(w));
    }

    static String revision(Pod p) {
        return Revisions.revision(p);
    }

    static Instant created(Pod p) {
        return Revisions.created(p);
    }

    /**
     * The addresses of the workload's pods, terminating ones too (they hold connections until they exit): its labelled
     * pods', and those of {@code clientPods} (the labels of pods the informer does not cache, by address) that the
     * workload owns as it owns a labelled pod: its pods the operator has not sized, whatever size they carry.
     */
    public Set<String> podIps(Workload w, Map<String, Map<String, String>> clientPods) {
        Set<String> ips = podsOf(w).stream().filter(p -> p.getStatus() != null && p.getStatus().getPodIP() != null)
                .map(p -> p.getStatus().getPodIP()).collect(Collectors.toCollection(java.util.HashSet::new));
        HasMetadata o = object(w);
        clientPods.forEach((ip, labels) -> {
            if (WorkloadShapes.owns(o, new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
                    .withLabels(labels).endMetadata().build())) {
                ips.add(ip);
            }
        });
        return ips;
    }

    /** The labelled pods the workload's selector matches. */
    List<Pod> podsOf(Workload w) {
        HasMetadata o = object(w);
        return pods.stream().filter(p -> WorkloadShapes.owns(o, p)).toList();
    }

    /** The quickest creation-to-Ready of the workload's labelled running pods, in seconds; null if none is Ready. */
    @Override
    public Integer observedReadySeconds(Workload w) {
        Long quickest = null;
        for (Pod p : podsOf(w)) {
            if (p.getMetadata().getDeletionTimestamp() != null || p.getStatus() == null
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

    /** A Deployment or Argo Rollout paused: its template changes do not roll out. */
    public boolean paused(Workload w) {
        return WorkloadShapes.paused(object(w));
    }

    static int n(Integer value) {
        return value == null ? 0 : value;
    }
}
