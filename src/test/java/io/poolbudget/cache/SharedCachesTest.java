package io.poolbudget.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.health.InformerHealthIndicator;
import io.javaoperatorsdk.operator.health.InformerWrappingEventSourceHealthIndicator;
import io.javaoperatorsdk.operator.health.Status;
import io.javaoperatorsdk.operator.processing.event.source.informer.UnstartedSources;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The DatabaseBudget controller reads the policy controller's caches only once every informer behind them has synced. */
class SharedCachesTest {

    @Test
    void syncedOnlyWhenAttachedAndEveryInformerHasListed() {
        var caches = new SharedCaches(Constants.WATCH_ALL_NAMESPACES, true);
        assertThat(caches.synced()).as("nothing attached yet").isFalse();

        AtomicBoolean podsListed = new AtomicBoolean(false);
        InformerWrappingEventSourceHealthIndicator<?> policies = () -> Map.of("", informer(() -> true));
        InformerWrappingEventSourceHealthIndicator<?> pods = () -> Map.of("", informer(podsListed::get));
        InformerWrappingEventSourceHealthIndicator<?> notStarted = Map::of;

        caches.attach(List::of, List::of, List::of, List::of, List.of(policies, pods));
        assertThat(caches.synced()).as("the pods' informer is still listing").isFalse();
        podsListed.set(true);
        assertThat(caches.synced()).isTrue();

        caches.attach(List::of, List::of, List::of, List::of, List.of(policies, pods, notStarted));
        assertThat(caches.synced()).as("an informer not yet started has no indicator").isFalse();
    }

    @Test
    void aSourceNotYetStartedIsNotSyncedAndDoesNotThrow() {
        try (var client = new KubernetesClientBuilder().build()) {
            var namespaces = UnstartedSources.of(Namespace.class, PoolPolicy.class, client);
            assertThatThrownBy(namespaces::informerHealthIndicators)
                    .as("JOSDK's own indicator, before the source starts: what the dashboard's timer met")
                    .isInstanceOf(NullPointerException.class);
            assertThat(SharedCaches.health(namespaces).informerHealthIndicators()).isEmpty();

            var caches = new SharedCaches(Constants.WATCH_ALL_NAMESPACES, true);
            caches.attach(List::of, List::of, List::of, List::of, List.of(SharedCaches.health(namespaces)));
            assertThat(caches.synced()).isFalse();
        }
    }

    @Test
    void sharedOnlyWhereThePolicyControllerWatchesEveryNamespace() {
        assertThat(new SharedCaches(Constants.WATCH_ALL_NAMESPACES, true).active()).isTrue();
        assertThat(new SharedCaches("shop, " + Constants.WATCH_ALL_NAMESPACES, true).active()).isTrue();
        assertThat(new SharedCaches("shop,billing", true).active()).isFalse();
        assertThat(new SharedCaches("shop,billing", true).everyNamespace()).isFalse();
        var noSharedBudgets = new SharedCaches(Constants.WATCH_ALL_NAMESPACES, false);
        assertThat(noSharedBudgets.active()).as("namespaces are watched only with shared budgets on").isFalse();
        assertThat(noSharedBudgets.everyNamespace()).isTrue();
    }

    private static InformerHealthIndicator informer(java.util.function.BooleanSupplier synced) {
        return new InformerHealthIndicator() {
            @Override
            public boolean hasSynced() {
                return synced.getAsBoolean();
            }

            @Override
            public boolean isWatching() { return true; }

            @Override
            public boolean isRunning() { return true; }

            @Override
            public Status getStatus() { return Status.HEALTHY; }

            @Override
            public String getTargetNamespace() { return ""; }
        };
    }
}
