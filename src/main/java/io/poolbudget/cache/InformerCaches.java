package io.poolbudget.cache;

import io.poolbudget.planning.Owner;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;

/** How a reconciler reads the informers' caches (the API server only for a workload kept as a skeleton: {@link #workloads}). */
public final class InformerCaches {
    private InformerCaches() {}

    /**
     * An informer's cache: one namespace's objects, or with {@code namespace} null all (cluster-scoped ones too).
     * Where one informer watches every namespace, a namespace is read through the store's own index: JOSDK's
     * {@code list(namespace)} filters every cached object, which with 50,000 Deployments in the cluster was most of
     * a pass's time.
     */
    public static <R extends HasMetadata> List<R> cached(Context<PoolPolicy> context, Class<R> type, String namespace) {
        var source = source(context, type);
        if (namespace == null) {
            return source.list().toList();
        }
        // not fabric8's namespace index: an object being updated is missing from it for a moment (see PrunedStore)
        PrunedStore<R> store = prunedStore(source);
        return store != null ? store.inNamespace(namespace)
                : source.list(namespace).toList(); // one informer per namespace: its store holds only that one
    }

    /** Whether an informer watches {@code type} (Argo Rollouts only where their API was served at start). */
    public static boolean watches(Context<PoolPolicy> context, Class<? extends HasMetadata> type) {
        return !context.eventSourceRetriever().getEventSourcesFor(type).isEmpty();
    }

    @SuppressWarnings("unchecked")
    private static <R extends HasMetadata> InformerEventSource<R, PoolPolicy> source(Context<PoolPolicy> context,
            Class<R> type) {
        return (InformerEventSource<R, PoolPolicy>) context.eventSourceRetriever().getEventSourceFor(type);
    }

    /** The informer's store where it is ours (one informer watches every namespace), else null. */
    @SuppressWarnings("unchecked")
    private static <R extends HasMetadata> PrunedStore<R> prunedStore(InformerEventSource<R, PoolPolicy> source) {
        return source.configuration().getInformerConfig().getItemStore() instanceof PrunedStore<?> store
                ? (PrunedStore<R>) store : null;
    }

    /**
     * A namespace's workloads of one kind, each of them whole that one of {@code readers} reads. Where the store
     * kept only a {@link WorkloadInterest skeleton} of one (no policy read it when it was stored), it is read from the
     * API server, once: the store keeps it whole from then on. One gone meanwhile is left out.
     */
    public static <R extends HasMetadata> List<R> workloads(Context<PoolPolicy> context, Class<R> type,
            String namespace,
            Collection<PoolPolicy> readers) {
        List<R> cached = cached(context, type, namespace);
        Predicate<R> toRead = o -> WorkloadInterest.isSkeleton(o) && WorkloadInterest.wanted(readers, o);
        if (cached.stream().noneMatch(toRead)) {
            return cached;
        }
        PrunedStore<R> store = prunedStore(source(context, type)); // only our store keeps skeletons
        List<R> out = new ArrayList<>(cached.size());
        for (R o : cached) {
            if (toRead.test(o)) {
                // a list by name: the operator may list and watch workloads, not get them
                R read = context.getClient().resources(type).inNamespace(namespace)
                        .withField("metadata.name", o.getMetadata().getName()).list().getItems().stream()
                        .findFirst().orElse(null);
                o = read == null ? null : store.restore(read);
            }
            if (o != null && !WorkloadInterest.isSkeleton(o)) {
                out.add(o);
            }
        }
        return out;
    }

    /** The name of the informer of the pods the operator sized (every namespace it watches). */
    public static final String SIZED_PODS = "pod-" + Owner.SIZED_LABEL.replaceAll("[^a-z0-9-]", "-");

    /** Every pod the operator sized, in every namespace it watches. */
    @SuppressWarnings("unchecked")
    public static List<Pod> sizedPods(Context<? extends HasMetadata> context) {
        return ((InformerEventSource<Pod, ?>) context.eventSourceRetriever().getEventSourceFor(Pod.class, SIZED_PODS))
                .list().toList();
    }
}
