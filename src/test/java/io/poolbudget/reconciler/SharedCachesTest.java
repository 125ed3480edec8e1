package io.poolbudget.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.health.InformerHealthIndicator;
import io.javaoperatorsdk.operator.health.InformerWrappingEventSourceHealthIndicator;
import io.javaoperatorsdk.operator.health.Status;
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

        caches.attach(List::of, List::of, List::of, List.of(policies, pods));
        assertThat(caches.synced()).as("the pods' informer is still listing").isFalse();
        podsListed.set(true);
        assertThat(caches.synced()).isTrue();

        caches.attach(List::of, List::of, List::of, List.of(policies, pods, notStarted));
        assertThat(caches.synced()).as("an informer not yet started has no indicator").isFalse();
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
            public boolean isWatching() {
                return true;
            }

            @Override
            public boolean isRunning() {
                return true;
            }

            @Override
            public Status getStatus() {
                return Status.HEALTHY;
            }

            @Override
            public String getTargetNamespace() {
                return "";
            }
        };
    }
}
