package io.poolbudget.cache;

import io.poolbudget.config.OperatorConfig;

import io.poolbudget.config.WatchedNamespaces;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.health.InformerHealthIndicator;
import io.javaoperatorsdk.operator.health.InformerWrappingEventSourceHealthIndicator;
import io.javaoperatorsdk.operator.processing.event.source.informer.ManagedInformerEventSource;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The policy controller's caches of policies, namespaces and sized pods, which the DatabaseBudget controller reads
 * too where the policy controller watches every namespace (and the dashboard reads the policies and the
 * DatabaseBudgets while this replica leads): one watch of each instead of two. Each of these objects was otherwise
 * received, decrypted, parsed and cached twice; a policy's status (about 5 KB, written twice per scale event) three
 * times, with the policy controller's second policy watch that {@code PolicyEventSources.neighbours} replaced, and four
 * with the dashboard's.
 * <p>
 * The policy controller {@link #attach attaches} its caches once it has made them, and their stores tell of each change
 * ({@link PrunedStore#notifying}), which this hands to the DatabaseBudget controller's {@link #listen listener}. The
 * two controllers start on their own: until every attached cache has synced, {@link #synced} is false, and the
 * DatabaseBudget controller writes nothing.
 */
@Singleton
public class SharedCaches {
    /** What the DatabaseBudget controller is told: a policy or namespace changed, or a sized pod did. */
    public interface Listener {
        void policyOrNamespace();

        void pod(Pod was, Pod now);
    }

    private static final Listener NOBODY = new Listener() {
        @Override
        public void policyOrNamespace() {}

        @Override
        public void pod(Pod was, Pod now) {}
    };

    private final boolean everyNamespace;
    private final boolean active;
    private volatile Supplier<List<PoolPolicy>> policies;
    private volatile Supplier<List<Namespace>> namespaces;
    private volatile Supplier<List<Pod>> sizedPods;
    private volatile Supplier<List<DatabaseBudget>> budgets;
    private volatile List<InformerWrappingEventSourceHealthIndicator<?>> sources = List.of();
    private volatile Listener listener = NOBODY;

    /** Shared where the policy controller watches every namespace ({@link WatchedNamespaces}) and budgets are on. */
    @Inject
    public SharedCaches(OperatorConfig config) {
        this(WatchedNamespaces.property(), config.sharedBudgets().enabled());
    }

    /** {@code namespaces}: the policy controller's, as its property lists them ({@link WatchedNamespaces#of}). */
    public SharedCaches(String namespaces, boolean sharedBudgets) {
        this.everyNamespace = WatchedNamespaces.of(namespaces).isEmpty();
        this.active = everyNamespace && sharedBudgets;
    }

    /**
     * Whether the policy controller watches every namespace with one informer: then its cache is a {@link PrunedStore}
     * of ours.
     */
    public boolean everyNamespace() {
        return everyNamespace;
    }

    /**
     * Whether the policy controller's caches are shared: it watches {@link #everyNamespace every namespace} and shared
     * budgets are on (it watches namespaces only then). The DatabaseBudget controller then watches nothing of its own,
     * and the dashboard reads the policies and the DatabaseBudgets while this replica leads. The one answer every
     * reader reads, so they cannot disagree (and the DatabaseBudget controller wait for caches never attached).
     */
    public boolean active() {
        return active;
    }

    /** The policy controller's caches: its own (policies), its namespaces', sized pods' and DatabaseBudgets'. */
    public void attach(Supplier<List<PoolPolicy>> policies, Supplier<List<Namespace>> namespaces,
            Supplier<List<Pod>> sizedPods, Supplier<List<DatabaseBudget>> budgets,
            List<InformerWrappingEventSourceHealthIndicator<?>> sources) {
        this.policies = policies;
        this.namespaces = namespaces;
        this.sizedPods = sizedPods;
        this.budgets = budgets;
        this.sources = List.copyOf(sources);
    }

    /**
     * An informer event source's health as {@link #synced} reads it: no informers until the source has started. JOSDK
     * makes a source's informers in its start() and until then throws when asked for their health, and the dashboard
     * asks every second from the process's start, before the policy controller has started its sources (each start
     * logged a NullPointerException's stack trace). JOSDK marks a source running after its informers are made.
     */
    public static InformerWrappingEventSourceHealthIndicator<?> health(ManagedInformerEventSource<?, ?, ?> source) {
        return () -> source.isRunning() ? source.informerHealthIndicators() : Map.of();
    }

    public void listen(Listener listener) {
        this.listener = listener;
    }

    /**
     * Whether the caches are attached (this replica leads and its policy controller has started) and every informer
     * behind them has listed what it watches.
     */
    public boolean synced() {
        return policies != null && !sources.isEmpty() && sources.stream().allMatch(s -> {
            var informers = s.informerHealthIndicators().values();
            return !informers.isEmpty() && informers.stream().allMatch(InformerHealthIndicator::hasSynced);
        });
    }

    /** The policy controller's policies as its cache holds them (pruned as {@link PrunedStore} prunes, status whole). */
    public List<PoolPolicy> policies() {
        return policies.get();
    }

    public List<Namespace> namespaces() {
        return namespaces.get();
    }

    public List<Pod> sizedPods() {
        return sizedPods.get();
    }

    /** The DatabaseBudgets as the policy controller's cache holds them (pruned as {@link PrunedStore} prunes). */
    public List<DatabaseBudget> budgets() {
        return budgets.get();
    }

    /** A policy or a namespace changed. */
    public void changed() {
        listener.policyOrNamespace();
    }

    public void podChanged(Pod was, Pod now) {
        listener.pod(was, now);
    }
}
