package io.poolbudget.reconciler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.Map;

/**
 * An informer store (fabric8's {@code ItemStore}, given to JOSDK's informer configuration) that keeps only what
 * the operator reads of each cached object. Every Deployment, StatefulSet and HPA of the watched namespaces is
 * cached, so what is dropped here is dropped once per object in the cluster:
 * <ul>
 *   <li>the {@code fieldsV1} of every managedFields entry (the field sets, the largest part of most objects); the
 *       entries themselves stay, in place, because the upgrade from version 0.1 reads their managers and
 *       operations by index;</li>
 *   <li>a pod's managedFields altogether (nothing reads them);</li>
 *   <li>kubectl's {@code last-applied-configuration} annotation (a second copy of the whole object).</li>
 * </ul>
 * The stripped object is what the informer hands to event handlers too, so every reader sees the same thing.
 * Writes never start from a cached object (they apply a partial object of their own), so none of this is
 * written back.
 */
final class PrunedStore<R extends HasMetadata> extends BasicItemStore<R> {
    static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    PrunedStore() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public R put(String key, R obj) {
        return super.put(key, prune(obj));
    }

    static <R extends HasMetadata> R prune(R obj) {
        var meta = obj.getMetadata();
        if (meta == null) {
            return obj;
        }
        if (obj instanceof Pod) {
            meta.setManagedFields(null);
        } else if (meta.getManagedFields() != null) {
            for (ManagedFieldsEntry e : meta.getManagedFields()) {
                e.setFieldsV1(null);
            }
        }
        Map<String, String> annotations = meta.getAnnotations();
        if (annotations != null && annotations.containsKey(LAST_APPLIED)) {
            annotations.remove(LAST_APPLIED);
        }
        return obj;
    }
}
