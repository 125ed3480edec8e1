package io.poolbudget.web;

import io.poolbudget.config.ListPages;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.config.OperatorConfig;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.cache.PrunedStore;
import io.poolbudget.cache.SharedCaches;
import io.poolbudget.config.WatchedNamespaces;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;

/**
 * The dashboard's own read-only caches: PoolPolicies and the Events about them, in the namespaces
 * the operator watches. They run on every replica, so a standby (which reconciles nothing) serves the
 * same page as the leader; the dashboard never calls the API server per request.
 * <p>
 * Once this replica leads and the policy controller's caches are shared and listed ({@link SharedCaches}), the
 * dashboard reads the controller's policies and DatabaseBudgets and stops its own watches of them: every status write
 * (a policy's about 5 KB, two per scale event) then reaches this replica once, not twice, and one copy of each is
 * cached, not two. A replica that stops leading exits (LeaderElection), so those caches never go while the page reads
 * them.
 */
@ApplicationScoped
public class DashboardSource {
    private final KubernetesClient client;
    private final boolean enabled;
    private final List<String> namespaces;
    private final SharedCaches caches;
    private final Vertx vertx;
    private volatile List<SharedIndexInformer<PoolPolicy>> policies = List.of();
    private final List<SharedIndexInformer<Event>> events = new ArrayList<>();
    private final boolean sharedBudgets;
    private volatile SharedIndexInformer<DatabaseBudget> budgets;

    DashboardSource(KubernetesClient client, SharedCaches caches, Vertx vertx, OperatorConfig config) {
        this.client = client;
        this.caches = caches;
        this.vertx = vertx;
        this.enabled = config.dashboard().enabled();
        this.namespaces = WatchedNamespaces.configured();
        this.sharedBudgets = config.sharedBudgets().enabled();
    }

    public boolean enabled() {
        return enabled;
    }

    void start(@Observes StartupEvent start) {
        if (!enabled) {
            return;
        }
        boolean all = namespaces.isEmpty();
        List<SharedIndexInformer<PoolPolicy>> policies = new ArrayList<>();
        for (String ns : all ? List.of(Constants.WATCH_ALL_NAMESPACES) : namespaces) {
            var policyOp = all ? client.resources(PoolPolicy.class).inAnyNamespace()
                    : client.resources(PoolPolicy.class).inNamespace(ns);
            // paged lists and pruned, compacted stores, as the reconciler's own caches (PrunedStore)
            policies.add(policyOp.withLimit(ListPages.LIMIT).runnableInformer(0).itemStore(new PrunedStore<>()));
            var eventOp = (all ? client.v1().events().inAnyNamespace() : client.v1().events().inNamespace(ns))
                    .withField("involvedObject.kind", "PoolPolicy");
            events.add(eventOp.withLimit(ListPages.LIMIT).runnableInformer(0).itemStore(new PrunedStore<>()));
        }
        if (sharedBudgets) { // cluster-scoped and few: the whole database's card reads their status
            budgets = client.resources(DatabaseBudget.class).runnableInformer(0);
            budgets.start();
        }
        // start without waiting: the page says "loading" until the first list arrives
        this.policies = policies;
        policies.forEach(SharedIndexInformer::start);
        events.forEach(SharedIndexInformer::start);
        if (caches.active()) {
            vertx.setPeriodic(1000, timer -> {
                if (caches.synced()) { // this replica leads, and the controller has listed every policy
                    vertx.cancelTimer(timer);
                    stopOwnWatches();
                }
            });
        }
    }

    private void stopOwnWatches() {
        var own = policies;
        policies = List.of();
        own.forEach(SharedIndexInformer::stop);
        var ownBudgets = budgets;
        budgets = null;
        if (ownBudgets != null) {
            ownBudgets.stop();
        }
    }

    void stop(@Observes ShutdownEvent stop) {
        policies.forEach(SharedIndexInformer::stop);
        events.forEach(SharedIndexInformer::stop);
        if (budgets != null) {
            budgets.stop();
        }
    }

    /** True once every cache has had its first list. */
    public boolean synced() {
        var ownBudgets = budgets;
        return (caches.synced() || policies.stream().allMatch(SharedIndexInformer::hasSynced)
                && (ownBudgets == null || ownBudgets.hasSynced()))
                && events.stream().allMatch(SharedIndexInformer::hasSynced);
    }

    /** The policies: the controller's once this replica leads and they are listed, else the dashboard's own. */
    public List<PoolPolicy> policies() {
        return caches.synced() ? caches.policies()
                : policies.stream().flatMap(i -> i.getStore().list().stream()).toList();
    }

    /**
     * The DatabaseBudgets, where this installation shares budgets (none before their first list): the controller's
     * once this replica leads and they are listed, else the dashboard's own.
     */
    public List<DatabaseBudget> budgets() {
        if (caches.synced()) {
            return caches.budgets();
        }
        var own = budgets;
        return own == null ? List.of() : own.getStore().list();
    }

    public List<Event> events() {
        return events.stream().flatMap(i -> i.getStore().list().stream()).toList();
    }
}
