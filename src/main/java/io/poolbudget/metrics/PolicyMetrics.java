package io.poolbudget.metrics;

import io.poolbudget.memory.PolicyMemory;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The operator's Prometheus series, read from the status it last computed for each policy, so a
 * scrape shows what {@code kubectl get poolpolicy -o yaml} shows. One series set per existing policy
 * and per target in its status; {@link #remove} drops a deleted policy's series and a target that
 * leaves the status loses its own, so cardinality follows the objects. Every name, type and label is
 * listed in docs/reference/metrics.md and used by the chart's Grafana dashboard and alert rules.
 *
 * <p>The per-policy and per-target gauges are not Micrometer meters: at 1,000 policies over 10,000 workloads they
 * would be 96,000 meters of about 530 bytes each (50 MB of heap that only ever repeats the statuses). They are a
 * collector of the Prometheus client under Micrometer's Prometheus registry ({@link StatusCollector}) that builds the
 * samples from the last statuses at scrape time, so they cost nothing between scrapes. Counters stay Micrometer's.
 */
@jakarta.inject.Singleton
public final class PolicyMetrics {
    /** Write outcomes, the values of the {@code outcome} label of {@code poolbudget_writes_total}. */
    public enum WriteOutcome {
        applied, conflict, error
    }

    private final MeterRegistry registry;
    private final Map<String, StatusCollector.Exported> policies = new ConcurrentHashMap<>();
    private final Map<String, Set<Meter>> writeCounters = new ConcurrentHashMap<>();
    private final Counter reconciles;
    private final Counter reconcileErrors;

    /** The operator's: a policy's series go when the policy is forgotten ({@link PolicyMemory#forget}). */
    @jakarta.inject.Inject
    public PolicyMetrics(MeterRegistry registry, PolicyMemory memory) {
        this(registry, Clock.systemUTC());
        memory.onForget(p -> remove(p.getMetadata().getNamespace(), p.getMetadata().getName()));
    }

    public PolicyMetrics(MeterRegistry registry, Clock clock) {
        this.registry = registry;
        this.reconciles = Counter.builder("poolbudget_reconciles_total")
                .description("Reconcile passes this replica finished, with or without error").register(registry);
        this.reconcileErrors = Counter.builder("poolbudget_reconcile_errors_total")
                .description("Reconcile passes that ended in an error (they are retried with back-off)")
                .register(registry);
        Gauge.builder("poolbudget_policies", policies, Map::size)
                .description("PoolPolicies this replica reconciles and exports series for (0 on a standby)")
                .register(registry);
        StatusCollector.registerWith(registry, policies.values(), clock);
    }

    public void reconciled() {
        reconciles.increment();
    }

    public void reconcileFailed() {
        reconciles.increment();
        reconcileErrors.increment();
    }

    /** Counts one write of the operator to a workload or ConfigMap of this policy. */
    public void wrote(String namespace, String policy, WriteOutcome outcome) {
        Tags tags = Tags.of("namespace", namespace, "policy", policy, "outcome", outcome.name());
        Counter counter = Counter.builder("poolbudget_writes_total")
                .description("Writes the operator made to workloads and their ConfigMaps, by outcome").tags(tags)
                .register(registry);
        counter.increment();
        writeCounters.computeIfAbsent(namespace + "/" + policy, k -> ConcurrentHashMap.newKeySet()).add(counter);
    }

    /** Sets the policy's series from the status it now has; a null database name is exported as "". */
    public void record(String namespace, String policy, String database, PoolPolicyStatus status) {
        policies.put(namespace + "/" + policy,
                StatusCollector.Exported.of(namespace, policy, database == null ? "" : database, status));
    }

    public void remove(String namespace, String policy) {
        Set<Meter> writes = writeCounters.remove(namespace + "/" + policy);
        if (writes != null) {
            writes.forEach(registry::remove);
        }
        policies.remove(namespace + "/" + policy);
    }
}
