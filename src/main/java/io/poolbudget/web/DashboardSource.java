package io.poolbudget.web;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.reconciler.PrunedStore;
import io.poolbudget.reconciler.WatchedNamespaces;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The dashboard's own read-only caches: PoolPolicies and the Events about them, in the namespaces
 * the operator watches. They run on every replica, so a standby (which reconciles nothing) serves the
 * same page as the leader; the dashboard never calls the API server per request.
 */
@ApplicationScoped
public class DashboardSource {
    private final KubernetesClient client;
    private final boolean enabled;
    private final List<String> namespaces;
    private final List<SharedIndexInformer<PoolPolicy>> policies = new ArrayList<>();
    private final List<SharedIndexInformer<Event>> events = new ArrayList<>();

    DashboardSource(KubernetesClient client,
                    @ConfigProperty(name = "poolbudget.dashboard.enabled", defaultValue = "true") boolean enabled,
                    @ConfigProperty(name = WatchedNamespaces.PROPERTY, defaultValue = Constants.WATCH_ALL_NAMESPACES) String namespaces) {
        this.client = client;
        this.enabled = enabled;
        this.namespaces = WatchedNamespaces.of(namespaces);
    }

    public boolean enabled() {
        return enabled;
    }

    void start(@Observes StartupEvent start) {
        if (!enabled) {
            return;
        }
        boolean all = namespaces.isEmpty();
        for (String ns : all ? List.of(Constants.WATCH_ALL_NAMESPACES) : namespaces) {
            var policyOp = all ? client.resources(PoolPolicy.class).inAnyNamespace()
                    : client.resources(PoolPolicy.class).inNamespace(ns);
            // paged lists and pruned, compacted stores, as the reconciler's own caches (PrunedStore)
            policies.add(policyOp.withLimit(PrunedStore.LIST_LIMIT).runnableInformer(0).itemStore(new PrunedStore<>()));
            var eventOp = (all ? client.v1().events().inAnyNamespace() : client.v1().events().inNamespace(ns))
                    .withField("involvedObject.kind", "PoolPolicy");
            events.add(eventOp.withLimit(PrunedStore.LIST_LIMIT).runnableInformer(0).itemStore(new PrunedStore<>()));
        }
        // start without waiting: the page says "loading" until the first list arrives
        policies.forEach(SharedIndexInformer::start);
        events.forEach(SharedIndexInformer::start);
    }

    void stop(@Observes ShutdownEvent stop) {
        policies.forEach(SharedIndexInformer::stop);
        events.forEach(SharedIndexInformer::stop);
    }

    /** True once every cache has had its first list. */
    public boolean synced() {
        return policies.stream().allMatch(SharedIndexInformer::hasSynced) && events.stream().allMatch(SharedIndexInformer::hasSynced);
    }

    public List<PoolPolicy> policies() {
        return policies.stream().flatMap(i -> i.getStore().list().stream()).toList();
    }

    public List<Event> events() {
        return events.stream().flatMap(i -> i.getStore().list().stream()).toList();
    }
}
