package io.poolbudget.metrics;

import io.fabric8.kubernetes.api.model.Condition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.api.v1alpha1.TargetStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

/**
 * The operator's Prometheus series, read from the status it last computed for each policy, so a
 * scrape shows what {@code kubectl get poolpolicy -o yaml} shows. One series set per existing policy
 * and per target in its status; {@link #remove} drops a deleted policy's series and a target that
 * leaves the status loses its own, so cardinality follows the objects. Every name, type and label is
 * listed in README.md ("Metrics") and used by the chart's Grafana dashboard and alert rules.
 */
public final class PolicyMetrics {
    /** Write outcomes, the values of the {@code outcome} label of {@code poolbudget_writes_total}. */
    public enum WriteOutcome { applied, conflict, error }

    private final MeterRegistry registry;
    private final Clock clock;
    private final Map<String, PolicySeries> policies = new ConcurrentHashMap<>();
    private final Map<String, Set<Meter>> writeCounters = new ConcurrentHashMap<>();
    private final Counter reconciles;
    private final Counter reconcileErrors;

    private record PolicySeries(String database, AtomicReference<PoolPolicyStatus> status, List<Meter> meters,
                                Map<String, TargetSeries> targets) {}

    private record TargetSeries(AtomicReference<TargetStatus> status, List<Meter> meters) {}

    public PolicyMetrics(MeterRegistry registry, Clock clock) {
        this.registry = registry;
        this.clock = clock;
        this.reconciles = Counter.builder("poolbudget_reconciles_total")
                .description("Reconcile passes this replica finished, with or without error").register(registry);
        this.reconcileErrors = Counter.builder("poolbudget_reconcile_errors_total")
                .description("Reconcile passes that ended in an error (they are retried with back-off)").register(registry);
        Gauge.builder("poolbudget_policies", policies, Map::size)
                .description("PoolPolicies this replica reconciles and exports series for (0 on a standby)")
                .register(registry);
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
        String key = namespace + "/" + policy;
        String db = database == null ? "" : database;
        PolicySeries s = policies.get(key);
        if (s != null && !s.database().equals(db)) {
            removeGauges(key); // the database's name changed: its label with it
            s = null;
        }
        if (s == null) {
            s = register(namespace, policy, db, status);
            policies.put(key, s);
        }
        s.status().set(status);
        Map<String, TargetStatus> now = new HashMap<>();
        for (TargetStatus t : status.getTargets()) {
            if (t.getKind() != null && t.getName() != null) { // a selector that matched nothing names no workload
                now.put(t.getKind() + "/" + t.getName(), t);
            }
        }
        PolicySeries series = s;
        series.targets().entrySet().removeIf(e -> {
            boolean gone = !now.containsKey(e.getKey());
            if (gone) {
                e.getValue().meters().forEach(registry::remove);
            }
            return gone;
        });
        now.forEach((id, t) -> series.targets().computeIfAbsent(id, x -> registerTarget(namespace, policy, db, t))
                .status().set(t));
    }

    public void remove(String namespace, String policy) {
        Set<Meter> writes = writeCounters.remove(namespace + "/" + policy);
        if (writes != null) {
            writes.forEach(registry::remove);
        }
        removeGauges(namespace + "/" + policy);
    }

    private void removeGauges(String key) {
        PolicySeries s = policies.remove(key);
        if (s != null) {
            s.meters().forEach(registry::remove);
            s.targets().values().forEach(t -> t.meters().forEach(registry::remove));
        }
    }

    private PolicySeries register(String namespace, String policy, String db, PoolPolicyStatus first) {
        var ref = new AtomicReference<>(first);
        Tags tags = Tags.of("namespace", namespace, "policy", policy, "database", db);
        List<Meter> meters = new ArrayList<>();
        var g = new Gauges<>(ref, tags, meters);
        g.add("poolbudget_budget_connections", "Connections the policy's targets may hold together (status.budget)",
                st -> st.getBudget() == null ? Double.NaN : st.getBudget().getConnections());
        g.add("poolbudget_allocated_connections", "Connections the planned pool sizes take at peak pods (status.allocated)",
                st -> num(st.getAllocated()));
        g.add("poolbudget_unallocated_connections", "Budget the plan leaves unused (status.unallocated)",
                st -> num(st.getUnallocated()));
        g.add("poolbudget_policy_ready", "1 while the policy is Ready (condition Ready=True): planned and applied, "
                + "or planned in dry run", st -> reason(st, "Ready", null));
        g.add("poolbudget_live_connections", "Connections the targets' pods hold now by their own specs, terminating "
                + "pods included (status.liveConnections)", st -> num(st.getLiveConnections()));
        g.add("poolbudget_oversubscribed", "1 while even the smallest pools the policy allows need more than the budget "
                + "(condition Oversubscribed=True, reason Oversubscribed)", st -> reason(st, "Oversubscribed", "Oversubscribed"));
        g.add("poolbudget_live_over_budget", "1 while the pods that exist hold more connections than the budget "
                + "(condition Oversubscribed=True, reason LiveOverBudget)", st -> reason(st, "Oversubscribed", "LiveOverBudget"));
        g.add("poolbudget_oversubscription_ratio", "Allocated connections over the budget: above 1 is oversubscribed",
                st -> st.getBudget() == null || st.getAllocated() == null || st.getBudget().getConnections() == 0 ? Double.NaN
                        : (double) st.getAllocated() / st.getBudget().getConnections());
        g.add("poolbudget_rollouts_in_progress", "Targets whose pods are rolling out a new pool size (state Rolling)",
                st -> count(st, "Rolling"));
        g.add("poolbudget_pending_raises", "Targets whose raise waits for the stabilization window or for other "
                + "targets' shrinks (state Pending)", st -> count(st, "Pending"));
        g.add("poolbudget_conflicts", "Targets the policy does not write because of a conflict (state Conflict)",
                st -> count(st, "Conflict"));
        g.add("poolbudget_observed_connections", "Client connections the database itself reports (status.observed."
                + "connections); NaN without spec.database.observe",
                st -> st.getObserved() == null ? Double.NaN : num(st.getObserved().getConnections()));
        g.add("poolbudget_observed_max_connections", "The database's max_connections (status.observed.maxConnections)",
                st -> st.getObserved() == null ? Double.NaN : num(st.getObserved().getMaxConnections()));
        g.add("poolbudget_observed_over_budget", "1 while the database's own count is above the budget or its capacity "
                + "below it (condition ObservedOverBudget=True)", st -> reason(st, "ObservedOverBudget", null));
        g.add("poolbudget_observation_failing", "1 while the database cannot be read (condition ObservationFailing=True)",
                st -> reason(st, "ObservationFailing", null));
        return new PolicySeries(db, ref, meters, new ConcurrentHashMap<>());
    }

    private TargetSeries registerTarget(String namespace, String policy, String db, TargetStatus first) {
        var ref = new AtomicReference<>(first);
        Tags tags = Tags.of("namespace", namespace, "policy", policy, "database", db, "kind", first.getKind(),
                "workload", first.getName());
        List<Meter> meters = new ArrayList<>();
        var g = new Gauges<>(ref, tags, meters);
        g.add("poolbudget_target_basis_replicas", "Replicas the target's basis counts (status.targets[].basisReplicas)",
                t -> num(t.getBasisReplicas()));
        g.add("poolbudget_target_peak_pods", "Pods the plan budgets for at once: basis, rollout surge and terminating "
                + "pods (status.targets[].peakPods)", t -> num(t.getPeakPods()));
        g.add("poolbudget_target_pool_size", "Per-pod pool size the plan wants (status.targets[].poolSize)",
                t -> num(t.getPoolSize()));
        g.add("poolbudget_target_applied_pool_size", "Per-pod pool size in the workload now; NaN before the first write "
                + "(status.targets[].appliedPoolSize)", t -> num(t.getAppliedPoolSize()));
        g.add("poolbudget_target_connections", "Connections the plan gives the target at peak pods "
                + "(status.targets[].connections)", t -> num(t.getConnections()));
        g.add("poolbudget_target_live_connections", "Connections the target's pods hold now "
                + "(status.targets[].liveConnections)", t -> num(t.getLiveConnections()));
        g.add("poolbudget_target_observed_connections", "Connections the database reports from the target's pods "
                + "(status.targets[].observedConnections); NaN when not observed", t -> num(t.getObservedConnections()));
        g.add("poolbudget_target_raise_pending_seconds", "How long the target's raise has waited; 0 when none waits "
                + "(from status.targets[].pendingSince)", t -> t.getPendingSince() == null ? 0
                : Math.max(0, Duration.between(Instant.parse(t.getPendingSince()), clock.instant()).toSeconds()));
        return new TargetSeries(ref, meters);
    }

    private final class Gauges<T> {
        private final AtomicReference<T> ref;
        private final Tags tags;
        private final List<Meter> meters;

        Gauges(AtomicReference<T> ref, Tags tags, List<Meter> meters) {
            this.ref = ref;
            this.tags = tags;
            this.meters = meters;
        }

        void add(String name, String help, ToDoubleFunction<T> value) {
            meters.add(Gauge.builder(name, ref, r -> value.applyAsDouble(r.get())).description(help).tags(tags)
                    .register(registry));
        }
    }

    private static double num(Number n) {
        return n == null ? Double.NaN : n.doubleValue();
    }

    private static double reason(PoolPolicyStatus st, String type, String reason) {
        for (Condition c : st.getConditions()) {
            if (type.equals(c.getType()) && "True".equals(c.getStatus())
                    && (reason == null || reason.equals(c.getReason()))) {
                return 1;
            }
        }
        return 0;
    }

    private static double count(PoolPolicyStatus st, String state) {
        return st.getTargetStates() == null ? 0 : st.getTargetStates().getOrDefault(state, 0);
    }
}
