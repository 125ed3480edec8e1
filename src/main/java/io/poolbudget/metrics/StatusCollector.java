package io.poolbudget.metrics;

import io.fabric8.kubernetes.api.model.Condition;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.api.v1alpha1.TargetStatus;
import io.prometheus.client.Collector;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The per-policy and per-target gauges, built at scrape time from the statuses {@link PolicyMetrics} last recorded:
 * a collector of the Prometheus client, registered with every Prometheus registry under the operator's Micrometer
 * registry. Labels are in Micrometer's order (sorted by name), so the series read exactly as Micrometer gauges would.
 */
final class StatusCollector extends Collector {
    /**
     * What one policy exports: its identity and the values its last status gives, computed once when recorded (the
     * status object itself is not kept: its explanations are most of its size).
     */
    record Exported(String namespace, String policy, String database, double[] values, List<Target> targets) {
        static Exported of(String namespace, String policy, String database, PoolPolicyStatus status) {
            double[] values = POLICY_SERIES.stream().mapToDouble(s -> s.value().applyAsDouble(status)).toArray();
            List<Target> targets = new ArrayList<>();
            for (TargetStatus t : status.getTargets()) {
                if (t.getKind() != null && t.getName() != null) { // a selector that matched nothing names no workload
                    targets.add(new Target(t.getKind(), t.getName(), TARGET_SERIES.stream()
                            .mapToDouble(s -> s.value().applyAsDouble(t)).toArray(),
                            t.getPendingSince() == null ? null : Instant.parse(t.getPendingSince())));
                }
            }
            return new Exported(namespace, policy, database, values, List.copyOf(targets));
        }
    }

    /** One target's values, in the order of {@link #TARGET_SERIES}, and since when its raise waits. */
    record Target(String kind, String name, double[] values, Instant pendingSince) {}

    private record Series<T>(String name, String help, ToDoubleFunction<T> value) {}

    private static final List<String> POLICY_LABELS = List.of("database", "namespace", "policy");
    private static final List<String> TARGET_LABELS = List.of("database", "kind", "namespace", "policy", "workload");

    private static final List<Series<PoolPolicyStatus>> POLICY_SERIES = policySeries();
    private static final List<Series<TargetStatus>> TARGET_SERIES = targetSeries();
    private static final String PENDING = "poolbudget_target_raise_pending_seconds";

    private final Collection<Exported> policies;
    private final Clock clock;

    private StatusCollector(Collection<Exported> policies, Clock clock) {
        this.policies = policies;
        this.clock = clock;
    }

    /** Registers a collector over {@code policies} with each Prometheus registry in {@code registry}. */
    static void registerWith(MeterRegistry registry, Collection<Exported> policies, Clock clock) {
        for (PrometheusMeterRegistry prometheus : prometheusRegistries(registry)) {
            new StatusCollector(policies, clock).register(prometheus.getPrometheusRegistry());
        }
    }

    static List<PrometheusMeterRegistry> prometheusRegistries(MeterRegistry registry) {
        if (registry instanceof PrometheusMeterRegistry p) {
            return List.of(p);
        }
        List<PrometheusMeterRegistry> found = new ArrayList<>();
        if (registry instanceof CompositeMeterRegistry composite) {
            composite.getRegistries().forEach(r -> found.addAll(prometheusRegistries(r)));
        }
        return found;
    }

    /**
     * The families, each over a list that makes its samples as the text format writes them, one at a time: at 10,000
     * targets the eight target families are 80,000 samples, each with its list of label values, which were all held
     * until the scrape was written. (A filtered scrape, {@code name[]}, still holds them: the Prometheus client
     * filters into a list.)
     */
    @Override
    public List<MetricFamilySamples> collect() {
        List<Exported> now = List.copyOf(policies);
        List<Row> rows = new ArrayList<>();
        for (Exported e : now) {
            for (Target t : e.targets()) {
                rows.add(new Row(e, t));
            }
        }
        List<MetricFamilySamples> families = new ArrayList<>();
        for (int i = 0; i < POLICY_SERIES.size(); i++) {
            int series = i;
            var s = POLICY_SERIES.get(i);
            add(families, s, POLICY_LABELS, now, e -> List.of(e.database(), e.namespace(), e.policy()),
                    e -> e.values()[series]);
        }
        Instant at = clock.instant();
        for (int i = 0; i < TARGET_SERIES.size(); i++) {
            int series = i;
            var s = TARGET_SERIES.get(i);
            add(families, s, TARGET_LABELS, rows,
                    r -> List.of(r.policy().database(), r.target().kind(), r.policy().namespace(), r.policy().policy(),
                            r.target().name()),
                    PENDING.equals(s.name()) ? r -> pendingSeconds(r.target(), at) : r -> r.target().values()[series]);
        }
        return families;
    }

    /** One target of one policy: a line of each target family. */
    private record Row(Exported policy, Target target) {}

    private static double pendingSeconds(Target t, Instant at) {
        return t.pendingSince() == null ? 0 : Math.max(0, Duration.between(t.pendingSince(), at).toSeconds());
    }

    /** Only a family with samples: a series nobody has is left out, as Micrometer leaves out a meter never made. */
    private static <T> void add(List<MetricFamilySamples> families, Series<?> s, List<String> labelNames, List<T> items,
            Function<T, List<String>> labels, ToDoubleFunction<T> value) {
        if (items.isEmpty()) {
            return;
        }
        List<MetricFamilySamples.Sample> samples = new AbstractList<>() {
            @Override
            public MetricFamilySamples.Sample get(int index) {
                T item = items.get(index);
                return new MetricFamilySamples.Sample(s.name(), labelNames, labels.apply(item),
                        value.applyAsDouble(item));
            }

            @Override
            public int size() {
                return items.size();
            }
        };
        families.add(new MetricFamilySamples(s.name(), Type.GAUGE, s.help(), samples));
    }

    private static List<Series<PoolPolicyStatus>> policySeries() {
        return List.of(
                new Series<>("poolbudget_budget_connections",
                        "Connections the policy's targets may hold together (status.budget)",
                        st -> st.getBudget() == null ? Double.NaN : st.getBudget().getConnections()),
                new Series<>("poolbudget_allocated_connections", "Connections the planned pool sizes take at peak pods "
                        + "(status.allocated)", st -> num(st.getAllocated())),
                new Series<>("poolbudget_unallocated_connections", "Budget the plan leaves unused (status.unallocated)",
                        st -> num(st.getUnallocated())),
                new Series<>("poolbudget_policy_ready",
                        "1 while the policy is Ready (condition Ready=True): planned and "
                                + "applied, or planned in dry run",
                        st -> reason(st, "Ready", null)),
                new Series<>("poolbudget_live_connections",
                        "Connections the targets' pods hold now by their own specs, "
                                + "terminating pods included (status.liveConnections); +Inf while pods not sized yet "
                                + "have no pool limit (status.liveConnectionsUnbounded)",
                        st -> live(st.getLiveConnections(), st.getLiveConnectionsUnbounded())),
                new Series<>("poolbudget_oversubscribed",
                        "1 while even the smallest pools the policy allows need more than "
                                + "the budget (condition Oversubscribed=True, reason Oversubscribed)",
                        st -> reason(st, "Oversubscribed", "Oversubscribed")),
                new Series<>("poolbudget_live_over_budget",
                        "1 while the pods that exist hold more connections than the "
                                + "budget (condition Oversubscribed=True, reason LiveOverBudget)",
                        st -> reason(st, "Oversubscribed", "LiveOverBudget")),
                new Series<>("poolbudget_oversubscription_ratio", "Allocated connections over the budget: above 1 is "
                        + "oversubscribed",
                        st -> st.getBudget() == null || st.getAllocated() == null
                                || st.getBudget().getConnections() == 0 ? Double.NaN
                                        : (double) st.getAllocated() / st.getBudget().getConnections()),
                new Series<>("poolbudget_rollouts_in_progress", "Targets whose pods are rolling out a new pool size "
                        + "(state Rolling)", st -> count(st, "Rolling")),
                new Series<>("poolbudget_stalled_rollouts",
                        "Targets whose rollout of a written size is not progressing "
                                + "(state Stalled: crash-looping new pods, ProgressDeadlineExceeded)",
                        st -> count(st, "Stalled")),
                new Series<>("poolbudget_pending_raises",
                        "Targets whose raise waits for the stabilization window or for "
                                + "other targets' shrinks (state Pending)",
                        st -> count(st, "Pending")),
                new Series<>("poolbudget_conflicts", "Targets the policy does not write because of a conflict (state "
                        + "Conflict)", st -> count(st, "Conflict")),
                new Series<>("poolbudget_observed_connections",
                        "Client connections the database itself reports in the observe scope (status."
                                + "observed.connections); NaN without spec.database.observe",
                        st -> st.getObserved() == null ? Double.NaN : num(st.getObserved().getConnections())),
                new Series<>("poolbudget_observed_max_connections", "The database's max_connections (status.observed."
                        + "maxConnections)",
                        st -> st.getObserved() == null ? Double.NaN
                                : num(st.getObserved().getMaxConnections())),
                new Series<>("poolbudget_observed_ghost_connections", "Connections the database holds for pods that "
                        + "are gone (status.observed.ghostConnections): they count against the budget until they end; "
                        + "0 while there are none, NaN without spec.database.observe",
                        st -> st.getObserved() == null ? Double.NaN
                                : st.getObserved().getGhostConnections() == null ? 0
                                        : num(st.getObserved().getGhostConnections())),
                new Series<>("poolbudget_observed_over_budget",
                        "1 while the database's own count is above the budget or "
                                + "its capacity below it (condition ObservedOverBudget=True)",
                        st -> reason(st, "ObservedOverBudget", null)),
                new Series<>("poolbudget_observation_failing", "1 while the database cannot be read (condition "
                        + "ObservationFailing=True)", st -> reason(st, "ObservationFailing", null)));
    }

    private static List<Series<TargetStatus>> targetSeries() {
        return List.of(
                new Series<>("poolbudget_target_basis_replicas", "Replicas the target's basis counts (status.targets[]."
                        + "basisReplicas)", t -> num(t.getBasisReplicas())),
                new Series<>("poolbudget_target_peak_pods",
                        "Pods the plan budgets for at once: basis, rollout surge and "
                                + "terminating pods (status.targets[].peakPods)",
                        t -> num(t.getPeakPods())),
                new Series<>("poolbudget_target_replicas_that_fit", "The most replicas (HPA maxReplicas for basis "
                        + "HpaMax) the target may plan for within the budget at minPoolSize (status.targets[]."
                        + "replicasThatFit)", t -> num(t.getReplicasThatFit())),
                new Series<>("poolbudget_target_pool_size",
                        "Per-pod pool size the plan wants (status.targets[].poolSize)",
                        t -> num(t.getPoolSize())),
                new Series<>("poolbudget_target_applied_pool_size",
                        "Per-pod pool size in the workload now; NaN before the "
                                + "first write (status.targets[].appliedPoolSize)",
                        t -> num(t.getAppliedPoolSize())),
                new Series<>("poolbudget_target_live_resize", "1 where running pods take new sizes without a restart "
                        + "(status.targets[].resize Live), 0 by rollouts; NaN before the first write",
                        t -> t.getResize() == null ? Double.NaN : "Live".equals(t.getResize()) ? 1 : 0),
                new Series<>("poolbudget_target_pods_confirmed", "Resize Live: pods whose agent confirmed the applied "
                        + "size (status.targets[].podsConfirmed); NaN elsewhere", t -> num(t.getPodsConfirmed())),
                new Series<>("poolbudget_target_pods_holding_size", "Resize Live: pods that hold the applied size, "
                        + "confirmed or started with it (status.targets[].podsHoldingSize); NaN elsewhere",
                        t -> num(t.getPodsHoldingSize())),
                new Series<>("poolbudget_target_connections", "Connections the plan gives the target at peak pods "
                        + "(status.targets[].connections)", t -> num(t.getConnections())),
                new Series<>("poolbudget_target_live_connections", "Connections the target's pods hold now "
                        + "(status.targets[].liveConnections); +Inf while pods not sized yet have no pool limit",
                        t -> live(t.getLiveConnections(), t.getLiveConnectionsUnbounded())),
                new Series<>("poolbudget_target_demand", "spec.allocation Demand or Recommend: connections the "
                        + "target's pods want, per pod, smoothed (status.targets[].demand); NaN elsewhere or when none "
                        + "is reported", t -> num(t.getDemand())),
                new Series<>("poolbudget_target_nominal_pool_size", "spec.allocation Demand or Recommend: the pool "
                        + "size by weights alone (status.targets[].nominalPoolSize); NaN elsewhere",
                        t -> num(t.getNominalPoolSize())),
                new Series<>("poolbudget_target_recommended_pool_size", "spec.allocation Recommend: the pool size "
                        + "mode Demand would give (status.targets[].recommendedPoolSize); NaN elsewhere",
                        t -> num(t.getRecommendedPoolSize())),
                new Series<>("poolbudget_target_observed_connections", "Connections the database reports from the "
                        + "target's pods (status.targets[].observedConnections); NaN when not observed",
                        t -> num(t.getObservedConnections())),
                new Series<>(PENDING, "How long the target's raise has waited; 0 when none waits (from "
                        + "status.targets[].pendingSince)", t -> Double.NaN)); // computed at scrape time
    }

    /**
     * What pods hold, or +Inf where they may open any number (issue 53): Prometheus's own value for a count without
     * bound, so that {@code live > budget} holds and a sum over it is unbounded too, where NaN would compare false and
     * a missing sample would drop the policy from both.
     */
    private static double live(Long connections, Boolean unbounded) {
        return Boolean.TRUE.equals(unbounded) ? Double.POSITIVE_INFINITY : num(connections);
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
