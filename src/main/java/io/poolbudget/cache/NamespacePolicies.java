package io.poolbudget.cache;

import io.javaoperatorsdk.operator.api.reconciler.ResourceCache;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.planning.SharedBudgets;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

/**
 * A namespace's policies, from the controller's cache. JOSDK's {@code list(namespace)} copies every cached policy and
 * filters them, and it runs for every workload event (the event mappers) and every workload the store keeps (its
 * skeleton check): O(policies) each, about 50 million steps at a 50,000-Deployment start-up with 1,000 policies.
 * Where the controller's cache is ours ({@link #ownStore}) its namespace index answers instead, and its index by
 * shared budget answers {@link #drawingOn}.
 */
public final class NamespacePolicies {
    private volatile PrunedStore<PoolPolicy> store;
    private volatile BiConsumer<PoolPolicy, PoolPolicy> changes = (was, now) -> {};

    /** The store to give the controller's informer (only where one informer watches every namespace). */
    public PrunedStore<PoolPolicy> ownStore() {
        store = new PrunedStore<PoolPolicy>().notifying((was, now) -> changes.accept(was, now))
                .groupedBy(SharedBudgets::ref);
        return store;
    }

    /** Whether the controller's cache is {@link #ownStore ours}: then {@link #onChange} hears of every policy. */
    public boolean owned() {
        return store != null;
    }

    /**
     * Tells {@code changes} of every policy that appears, changes or goes, once the controller's cache holds it (see
     * {@link PrunedStore#notifying}); only where the cache is {@link #owned ours}.
     */
    public void onChange(BiConsumer<PoolPolicy, PoolPolicy> changes) {
        this.changes = changes;
    }

    public Stream<PoolPolicy> in(ResourceCache<PoolPolicy> cache, String namespace) {
        PrunedStore<PoolPolicy> own = store;
        return own != null ? own.inNamespace(namespace).stream() : cache.list(namespace);
    }

    /**
     * The policies, in any namespace, that draw on the shared budget {@code budget}: the peers a policy's change wakes,
     * which runs on the watch's own thread where the cache is ours, so an index answers instead of a scan of every
     * policy.
     */
    public Stream<PoolPolicy> drawingOn(ResourceCache<PoolPolicy> cache, String budget) {
        PrunedStore<PoolPolicy> own = store;
        return own != null ? own.inGroup(budget).stream() : cache.list(p -> budget.equals(SharedBudgets.ref(p)));
    }
}
