package io.poolbudget.reconciler;

import io.javaoperatorsdk.operator.api.reconciler.ResourceCache;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.stream.Stream;

/**
 * A namespace's policies, from the controller's cache. JOSDK's {@code list(namespace)} copies every cached policy and
 * filters them, and it runs for every workload event (the event mappers) and every workload the store keeps (its
 * skeleton check): O(policies) each, about 50 million steps at a 50,000-Deployment start-up with 1,000 policies.
 * Where the controller's cache is ours ({@link #ownStore}) its namespace index answers instead.
 */
final class NamespacePolicies {
    private volatile PrunedStore<PoolPolicy> store;

    /** The store to give the controller's informer (only where one informer watches every namespace). */
    PrunedStore<PoolPolicy> ownStore() {
        store = new PrunedStore<>();
        return store;
    }

    Stream<PoolPolicy> in(ResourceCache<PoolPolicy> cache, String namespace) {
        PrunedStore<PoolPolicy> own = store;
        return own != null ? own.inNamespace(namespace).stream() : cache.list(namespace);
    }
}
