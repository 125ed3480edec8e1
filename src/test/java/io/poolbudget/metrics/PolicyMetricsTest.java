package io.poolbudget.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.poolbudget.api.v1alpha1.BudgetStatus;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.api.v1alpha1.TargetStatus;
import io.poolbudget.metrics.PolicyMetrics.WriteOutcome;
import io.poolbudget.status.Conditions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyMetricsTest {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final PolicyMetrics metrics = new PolicyMetrics(registry,
            Clock.fixed(Instant.parse("2026-11-22T10:00:00Z"), ZoneOffset.UTC));

    @Test
    void aScrapeShowsWhatTheStatusSays() {
        metrics.record("shop", "orders-db", "orders", status(12, 10, target("api", 4, 2, 5, 3), pending("worker", 2)));
        metrics.wrote("shop", "orders-db", WriteOutcome.applied);
        metrics.wrote("shop", "orders-db", WriteOutcome.applied);
        metrics.wrote("shop", "orders-db", WriteOutcome.conflict);
        metrics.reconciled();
        String p = "{database=\"orders\",namespace=\"shop\",policy=\"orders-db\"}";
        String api = "{database=\"orders\",kind=\"Deployment\",namespace=\"shop\",policy=\"orders-db\",workload=\"api\"}";
        String worker = api.replace("\"api\"", "\"worker\"");
        assertThat(lines()).contains(
                "poolbudget_budget_connections" + p + " 12.0",
                "poolbudget_allocated_connections" + p + " 10.0",
                "poolbudget_unallocated_connections" + p + " 2.0",
                "poolbudget_live_connections" + p + " 9.0",
                "poolbudget_oversubscription_ratio" + p + " " + (10.0 / 12),
                "poolbudget_oversubscribed" + p + " 0.0",
                "poolbudget_live_over_budget" + p + " 0.0",
                "poolbudget_policy_ready" + p + " 1.0",
                "poolbudget_pending_raises" + p + " 1.0",
                "poolbudget_rollouts_in_progress" + p + " 0.0",
                "poolbudget_conflicts" + p + " 0.0",
                "poolbudget_target_basis_replicas" + api + " 4.0",
                "poolbudget_target_peak_pods" + api + " 5.0",
                "poolbudget_target_pool_size" + api + " 2.0",
                "poolbudget_target_applied_pool_size" + api + " 3.0",
                "poolbudget_target_connections" + api + " 10.0",
                "poolbudget_target_live_connections" + api + " 9.0",
                "poolbudget_target_raise_pending_seconds" + api + " 0.0",
                "poolbudget_target_raise_pending_seconds" + worker + " 90.0",
                "poolbudget_target_applied_pool_size" + worker + " NaN",
                "poolbudget_writes_total{namespace=\"shop\",outcome=\"applied\",policy=\"orders-db\"} 2.0",
                "poolbudget_writes_total{namespace=\"shop\",outcome=\"conflict\",policy=\"orders-db\"} 1.0",
                "poolbudget_policies 1.0",
                "poolbudget_reconciles_total 1.0",
                "poolbudget_reconcile_errors_total 0.0");
    }

    @Test
    void theAllocationByDemandShowsDemandBesideTheNominalAndRecommendedSizes() {
        var api = target("api", 4, 2, 5, 3);
        api.setDemand(7);
        api.setNominalPoolSize(2);
        api.setRecommendedPoolSize(4);
        metrics.record("shop", "orders-db", "orders", status(12, 10, api, pending("worker", 2)));
        String labels = "{database=\"orders\",kind=\"Deployment\",namespace=\"shop\",policy=\"orders-db\",workload=";
        assertThat(lines()).contains("poolbudget_target_demand" + labels + "\"api\"} 7.0",
                "poolbudget_target_nominal_pool_size" + labels + "\"api\"} 2.0",
                "poolbudget_target_recommended_pool_size" + labels + "\"api\"} 4.0",
                "poolbudget_target_demand" + labels + "\"worker\"} NaN");
    }

    @Test
    void oversubscriptionAndLiveOverBudgetAreSeparateSignals() {
        var st = status(10, 14, target("api", 7, 2, 7, 2));
        st.getConditions().set(1, new ConditionBuilder().withType(Conditions.OVERSUBSCRIBED).withStatus(Conditions.TRUE)
                .withReason(Conditions.REASON_OVERSUBSCRIBED).build());
        metrics.record("shop", "p", null, st);
        assertThat(lines()).contains("poolbudget_oversubscribed{database=\"\",namespace=\"shop\",policy=\"p\"} 1.0",
                "poolbudget_live_over_budget{database=\"\",namespace=\"shop\",policy=\"p\"} 0.0",
                "poolbudget_oversubscription_ratio{database=\"\",namespace=\"shop\",policy=\"p\"} 1.4");
        st.getConditions().set(1, new ConditionBuilder().withType(Conditions.OVERSUBSCRIBED).withStatus(Conditions.TRUE)
                .withReason(Conditions.REASON_LIVE_OVER_BUDGET).build());
        metrics.record("shop", "p", null, st);
        assertThat(lines()).contains("poolbudget_oversubscribed{database=\"\",namespace=\"shop\",policy=\"p\"} 0.0",
                "poolbudget_live_over_budget{database=\"\",namespace=\"shop\",policy=\"p\"} 1.0");
    }

    @Test
    void seriesOfATargetThatLeavesAndOfADeletedPolicyDisappear() {
        metrics.record("shop", "p", "db", status(12, 10, target("api", 4, 2, 5, 2), target("old", 1, 1, 1, 1)));
        metrics.record("shop", "q", "db", status(12, 2, target("web", 1, 2, 1, 2)));
        metrics.wrote("shop", "p", WriteOutcome.error);
        assertThat(scrape()).contains("workload=\"old\"");
        metrics.record("shop", "p", "db", status(12, 10, target("api", 4, 2, 5, 2)));
        assertThat(scrape()).doesNotContain("workload=\"old\"").contains("workload=\"api\"");
        metrics.remove("shop", "p");
        assertThat(scrape()).doesNotContain("policy=\"p\"").contains("policy=\"q\"")
                .contains("poolbudget_policies 1.0");
    }

    @Test
    void aTargetThatNamesNoWorkloadHasNoSeries() {
        var nothing = new TargetStatus();
        nothing.setState("NotFound");
        nothing.setMessage("selector app=x matches no Deployment");
        metrics.record("shop", "p", "db", status(12, 0, nothing));
        assertThat(scrape()).doesNotContain("poolbudget_target_")
                .contains("poolbudget_budget_connections{database=\"db\"");
    }

    @Test
    void aRenamedDatabaseMovesItsSeriesToTheNewLabel() {
        metrics.record("shop", "p", "old-name", status(12, 10, target("api", 4, 2, 5, 2)));
        metrics.record("shop", "p", "new-name", status(12, 10, target("api", 4, 2, 5, 2)));
        assertThat(scrape()).doesNotContain("old-name").contains("database=\"new-name\"");
    }

    private List<String> lines() {
        return Arrays.stream(scrape().split("\n")).filter(l -> !l.startsWith("#"))
                .map(l -> l.replace(",}", "}")).toList(); // the text format allows a trailing comma
    }

    private String scrape() {
        return registry.scrape().replace(",}", "}");
    }

    static TargetStatus target(String name, long basis, int size, long peak, Integer applied) {
        var t = new TargetStatus();
        t.setKind("Deployment");
        t.setName(name);
        t.setBasisReplicas(basis);
        t.setPeakPods(peak);
        t.setPoolSize(size);
        t.setAppliedPoolSize(applied);
        t.setConnections(peak * size);
        t.setLiveConnections(applied == null ? null : peak * applied - 6);
        t.setState("Applied");
        return t;
    }

    private static TargetStatus pending(String name, int size) {
        var t = target(name, 1, size, 1, null);
        t.setState("Pending");
        t.setPendingSince("2026-11-22T09:58:30Z");
        return t;
    }

    static PoolPolicyStatus status(long budget, long allocated, TargetStatus... targets) {
        var st = new PoolPolicyStatus();
        var b = new BudgetStatus();
        b.setConnections(budget);
        st.setBudget(b);
        st.setAllocated(allocated);
        st.setUnallocated(budget - allocated);
        st.setTargets(List.of(targets));
        st.setLiveConnections(List.of(targets).stream().filter(t -> t.getLiveConnections() != null)
                .mapToLong(TargetStatus::getLiveConnections).sum());
        st.setTargetStates(Map.of("Applied", (int) List.of(targets).stream().filter(t -> t.getState().equals("Applied"))
                .count(), "Pending",
                (int) List.of(targets).stream().filter(t -> t.getState().equals("Pending")).count()));
        st.setConditions(new java.util.ArrayList<>(List.of(
                new ConditionBuilder().withType(Conditions.READY).withStatus(Conditions.TRUE).build(),
                new ConditionBuilder().withType(Conditions.OVERSUBSCRIBED).withStatus(Conditions.FALSE).build())));
        return st;
    }
}
