package io.poolbudget.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.poolbudget.decide.WorkloadShapes;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * An informer store (fabric8's {@code ItemStore}, given to JOSDK's informer configuration) that keeps only what
 * the operator reads of each cached object. Every Deployment, StatefulSet, CronJob, Argo Rollout and HPA of the
 * watched namespaces is cached, so what is dropped here is dropped once per object in the cluster:
 * <ul>
 *   <li>managedFields (the field sets are the largest part of most objects; nothing reads them);</li>
 *   <li>the message and last update time of a Deployment's or StatefulSet's conditions (their type, status, reason
 *       and transition time stay): unique to each object, and never read;</li>
 *   <li>of a workload's pod template and a pod's spec, all but what {@link PodSpecs} keeps (container names, env,
 *       preStop, probe delays), and a StatefulSet's volume claim templates;</li>
 *   <li>kubectl's {@code last-applied-configuration} annotation (a second copy of the whole object);</li>
 *   <li>of a workload no policy reads (a store made by {@link #workloads}), all but a {@link WorkloadInterest
 *       skeleton}: name, namespace, uid, labels and resource version.</li>
 * </ul>
 * What stays is then {@link Compaction compacted}: empty collections shared, the rest immutable and sized to its
 * content, repeated short strings shared.
 * The stripped object is what the informer hands to event handlers too, so every reader sees the same thing.
 * Writes never start from a cached object (they apply a partial object of their own), so none of this is
 * written back.
 * <p>
 * It also keeps its own index by namespace, which {@link #inNamespace} reads. fabric8's index (what
 * {@code byIndex} reads) is updated by taking an object's key out and putting it back, and its readers take no lock:
 * a reader in between finds no such object. With one Deployment in a namespace, a pass during a rollout
 * (every status update of the Deployment is such an update) reported the Deployment as not existing. Here a key
 * joins its namespace when the object is first stored and leaves when it is removed, never on an update.
 */
public final class PrunedStore<R extends HasMetadata> extends BasicItemStore<R> {
    public static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private final UnaryOperator<R> more;
    private final Predicate<R> whole;
    private final Map<String, Set<String>> keysByNamespace = new ConcurrentHashMap<>();
    private volatile BiConsumer<R, R> changes = (was, now) -> {};
    private volatile Function<R, String> group = o -> null;
    private final Map<String, Set<String>> keysByGroup = new ConcurrentHashMap<>();

    public PrunedStore() {
        this(UnaryOperator.identity(), o -> true);
    }

    private PrunedStore(UnaryOperator<R> more, Predicate<R> whole) {
        super(Cache::metaNamespaceKeyFunc);
        this.more = more;
        this.whole = whole;
    }

    /**
     * Workloads (Deployments, StatefulSets, CronJobs, Argo Rollouts): those no policy of their namespace reads are
     * kept as a {@link WorkloadInterest skeleton}. {@code policiesIn} gives a namespace's policies as the controller's cache holds them.
     */
    public static <R extends HasMetadata> PrunedStore<R> workloads(
            Function<String, Collection<PoolPolicy>> policiesIn) {
        return new PrunedStore<>(UnaryOperator.identity(),
                o -> WorkloadInterest.wanted(policiesIn.apply(namespace(o)), o));
    }

    /** PoolPolicies whose status is read for budget shares and raise blockers: without each target's explanation. */
    public static PrunedStore<PoolPolicy> policiesWithoutExplanations() {
        return new PrunedStore<>(p -> {
            if (p.getStatus() != null && p.getStatus().getTargets() != null) {
                p.getStatus().getTargets().forEach(t -> t.setExplanation(null));
            }
            return p;
        }, p -> true);
    }

    /**
     * Tells {@code changes} of every object that appears (was null), changes (a new resource version) or goes (now
     * null), as stored, once the store holds it: what an informer's event handler would be told, from the store
     * itself, so that one informer serves both its controller and what else must react to its objects. A relist
     * that stores an object unchanged tells nothing.
     */
    public PrunedStore<R> notifying(BiConsumer<R, R> changes) {
        this.changes = changes;
        return this;
    }

    /**
     * What a change {@link #notifying told of} concerns: what {@code concerns} maps the object to as it was and as it
     * is (either may be null), together.
     */
    public static <R, I> Set<I> concerning(R was, R now, Function<R, ? extends Collection<I>> concerns) {
        Set<I> ids = new java.util.HashSet<>();
        if (was != null) {
            ids.addAll(concerns.apply(was));
        }
        if (now != null) {
            ids.addAll(concerns.apply(now));
        }
        return ids;
    }

    /**
     * Keeps a second index, by {@code group} (null: in none), which {@link #inGroup} reads. Unlike the namespace, an
     * object's group may change on an update: it joins the new group before it leaves the old one, so a reader in
     * between finds it in both, and {@link #inGroup} keeps only those in the group asked for.
     */
    public PrunedStore<R> groupedBy(Function<R, String> group) {
        this.group = group;
        return this;
    }

    /** The objects whose {@link #groupedBy group} is {@code name}. */
    public List<R> inGroup(String name) {
        Function<R, String> of = group;
        return keysByGroup.getOrDefault(name, Set.of()).stream().map(this::get)
                .filter(o -> o != null && name.equals(of.apply(o))).toList();
    }

    @Override
    public R put(String key, R obj) {
        R old = store(key, obj);
        String version = obj.getMetadata() == null ? null : obj.getMetadata().getResourceVersion();
        if (old == null || old.getMetadata() == null || version == null
                || !version.equals(old.getMetadata().getResourceVersion())) {
            changes.accept(old, get(key));
        }
        return old;
    }

    private synchronized R store(String key, R obj) {
        R stored = Compaction.compact(whole.test(obj) ? more.apply(prune(obj)) : WorkloadInterest.skeleton(obj));
        R old = super.put(key, stored);
        if (old == null) {
            join(keysByNamespace, namespace(obj), key);
        }
        String now = group.apply(stored);
        String was = old == null ? null : group.apply(old);
        if (now != null) {
            join(keysByGroup, now, key);
        }
        if (was != null && !was.equals(now)) {
            leave(keysByGroup, was, key);
        }
        return old;
    }

    private static void join(Map<String, Set<String>> index, String name, String key) {
        index.compute(name, (n, keys) -> {
            Set<String> in = keys == null ? ConcurrentHashMap.newKeySet() : keys;
            in.add(key);
            return in;
        });
    }

    private static void leave(Map<String, Set<String>> index, String name, String key) {
        index.computeIfPresent(name, (n, keys) -> keys.remove(key) && keys.isEmpty() ? null : keys);
    }

    /**
     * A workload a policy has started to read, as just read from the API server, in place of its skeleton. Nothing
     * changes when the store holds no skeleton under that key any more (the informer stored the object whole since,
     * or removed it): what the store holds is returned, null when the object is gone.
     */
    public synchronized R restore(R read) {
        String key = getKey(read);
        R now = get(key);
        if (now == null || !WorkloadInterest.isSkeleton(now)) {
            return now;
        }
        R kept = Compaction.compact(more.apply(prune(read)));
        super.put(key, kept);
        return kept;
    }

    @Override
    public R remove(String key) {
        R old = drop(key);
        if (old != null) {
            changes.accept(old, null);
        }
        return old;
    }

    private synchronized R drop(String key) {
        R old = super.remove(key);
        if (old != null) {
            leave(keysByNamespace, namespace(old), key);
            String was = group.apply(old);
            if (was != null) {
                leave(keysByGroup, was, key);
            }
        }
        return old;
    }

    /** The objects of one namespace: an object being updated is always among them (as it was, or as it is). */
    public List<R> inNamespace(String namespace) {
        return keysByNamespace.getOrDefault(namespace, Set.of()).stream().map(this::get).filter(Objects::nonNull)
                .toList();
    }

    private static String namespace(HasMetadata obj) {
        String ns = obj.getMetadata() == null ? null : obj.getMetadata().getNamespace();
        return ns == null ? "" : ns;
    }

    public static <R extends HasMetadata> R prune(R obj) {
        var meta = obj.getMetadata();
        if (meta == null) {
            return obj;
        }
        meta.setManagedFields(null);
        if (obj instanceof Pod p) {
            p.setSpec(PodSpecs.readPart(p.getSpec()));
        } else if (WorkloadShapes.kind(obj) != null) {
            // every kind's pod template (a CronJob's Job's): what its spec says beyond it is what sizing reads
            // (replicas, strategy, parallelism, schedule)
            PodSpecs.keepReadPart(WorkloadShapes.template(obj));
            pruneMore(obj);
        }
        Map<String, String> annotations = meta.getAnnotations();
        if (annotations != null && annotations.containsKey(LAST_APPLIED)) {
            annotations.remove(LAST_APPLIED);
        }
        return obj;
    }

    /** What some kinds have more that nothing reads: condition messages, a StatefulSet's claim templates. */
    private static void pruneMore(HasMetadata obj) {
        if (obj instanceof Deployment d && d.getStatus() != null && d.getStatus().getConditions() != null) {
            d.getStatus().getConditions().forEach(c -> {
                c.setMessage(null);
                c.setLastUpdateTime(null);
            });
        } else if (obj instanceof StatefulSet s) {
            if (s.getSpec() != null) {
                s.getSpec().setVolumeClaimTemplates(null);
            }
            if (s.getStatus() != null && s.getStatus().getConditions() != null) {
                s.getStatus().getConditions().forEach(c -> c.setMessage(null));
            }
        }
    }
}
