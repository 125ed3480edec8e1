package io.poolbudget.reconciler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** How a reconciler reads the informers' caches (the API server only for a workload kept as a skeleton: {@link #workloads}). */
final class InformerCaches {
    private InformerCaches() {}

    /**
     * An informer's cache: one namespace's objects, or with {@code namespace} null all (cluster-scoped ones too).
     * Where one informer watches every namespace, a namespace is read through the store's own index: JOSDK's
     * {@code list(namespace)} filters every cached object, which with 50,000 Deployments in the cluster was most of
     * a pass's time.
     */
    @SuppressWarnings("unchecked")
    static <R extends HasMetadata> List<R> cached(Context<PoolPolicy> context, Class<R> type, String namespace) {
        var source = (InformerEventSource<R, PoolPolicy>) context.eventSourceRetriever().getEventSourceFor(type);
        if (namespace == null) {
            return source.list().toList();
        }
        // not fabric8's namespace index: an object being updated is missing from it for a moment (see PrunedStore)
        if (source.configuration().getInformerConfig().getItemStore() instanceof PrunedStore<R> store) {
            return store.inNamespace(namespace);
        }
        return source.list(namespace).toList();   // one informer per namespace: its store holds only that one
    }

    /**
     * A namespace's Deployments or StatefulSets, each of them whole that one of {@code readers} reads. Where the store
     * kept only a {@link WorkloadInterest skeleton} of one (no policy read it when it was stored), it is read from the
     * API server, once: the store keeps it whole from then on. One gone meanwhile is left out.
     */
    static <R extends HasMetadata> List<R> workloads(Context<PoolPolicy> context, Class<R> type, String namespace,
                                                     Collection<PoolPolicy> readers) {
        List<R> cached = cached(context, type, namespace);
        if (cached.stream().noneMatch(o -> WorkloadInterest.isSkeleton(o) && WorkloadInterest.wanted(readers, o))) {
            return cached;
        }
        @SuppressWarnings("unchecked")
        var store = (PrunedStore<R>) ((InformerEventSource<R, PoolPolicy>) context.eventSourceRetriever()
                .getEventSourceFor(type)).configuration().getInformerConfig().getItemStore();
        List<R> out = new ArrayList<>(cached.size());
        for (R o : cached) {
            if (WorkloadInterest.isSkeleton(o) && WorkloadInterest.wanted(readers, o)) {
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
    static final String SIZED_PODS = "pod-" + Owner.SIZED_LABEL.replaceAll("[^a-z0-9-]", "-");

    /** Every pod the operator sized, in every namespace it watches. */
    @SuppressWarnings("unchecked")
    static List<Pod> sizedPods(Context<? extends HasMetadata> context) {
        return ((InformerEventSource<Pod, ?>) context.eventSourceRetriever().getEventSourceFor(Pod.class, SIZED_PODS))
                .list().toList();
    }
}
