package io.poolbudget.reconciler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.List;

/** How a reconciler reads the informers' caches (never the API server). */
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

    /** The name of the informer of the pods the operator sized (every namespace it watches). */
    static final String SIZED_PODS = "pod-" + Owner.SIZED_LABEL.replaceAll("[^a-z0-9-]", "-");

    /** Every pod the operator sized, in every namespace it watches. */
    @SuppressWarnings("unchecked")
    static List<Pod> sizedPods(Context<? extends HasMetadata> context) {
        return ((InformerEventSource<Pod, ?>) context.eventSourceRetriever().getEventSourceFor(Pod.class, SIZED_PODS))
                .list().toList();
    }
}
