package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.TargetStatus;
import io.poolbudget.install.ChartTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * /q/metrics against the status the operator wrote, on the KWOK cluster: the same figures, updated
 * when a Deployment scales, and gone with the policy. And the chart's alert rules and Grafana
 * queries name only metrics the running operator exports, so a renamed metric fails here.
 */
class MetricsIT extends OperatorTestBase {
    private static final String POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: db}
            spec:
              database: {name: orders, cores: 8}
              injection: {preset: hikari-env}
              targets: [{name: web, weight: 2}, {name: worker}]
            """;
    private static final Pattern METRIC = Pattern.compile("\\b((?:poolbudget|jvm)_[a-z_]+)\\b");

    @BeforeAll
    static void start() {
        startOperator("metrics", "0s");
    }

    @Test
    void theScrapeShowsTheStatusFollowsAScaleUpAndLeavesWithThePolicy() {
        create(deployment("web", 2, Map.of()));
        create(deployment("worker", 1, Map.of()));
        applyPolicy(POLICY);
        PoolPolicy settled = awaitPolicy("db", MetricsIT::allApplied);
        awaitMetricsMatch(settled);
        assertThat(Scrape.of(operator.port()).value("poolbudget_writes_total",
                Map.of("namespace", ns, "outcome", "applied")))
                .isGreaterThanOrEqualTo(2.0);

        client.apps().deployments().inNamespace(ns).withName("web").scale(5);
        PoolPolicy scaled = awaitPolicy("db", p -> Long.valueOf(5).equals(target(p, "web").getBasisReplicas())
                && "Applied".equals(target(p, "web").getState()));
        awaitMetricsMatch(scaled);

        client.resources(PoolPolicy.class).inNamespace(ns).withName("db").delete();
        Awaitility.await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(Scrape.of(operator.port()).withLabel("namespace", ns))
                        .as("series of the deleted policy").isEmpty());
    }

    @Test
    void alertRulesGrafanaQueriesAndReadmeNameOnlyMetricsTheOperatorExports() throws Exception {
        create(deployment("web", 1, Map.of()));
        create(deployment("worker", 1, Map.of()));
        applyPolicy(POLICY);
        awaitPolicy("db", MetricsIT::allApplied);
        Set<String> exported = Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> Scrape.of(operator.port()).names(), n -> n.contains("poolbudget_writes_total"));

        Set<String> used = new TreeSet<>();
        for (JsonNode doc : ChartTools.render("pb", "prometheusRule.enabled=true", "grafanaDashboard.enabled=true")) {
            String kind = doc.path("kind").asText();
            if (kind.equals("PrometheusRule")) {
                doc.findValues("expr").forEach(e -> names(e.asText(), used));
            } else if (kind.equals("ConfigMap") && doc.path("data").has("poolbudget.json")) {
                new ObjectMapper().readTree(doc.path("data").path("poolbudget.json").asText()).findValues("expr")
                        .forEach(e -> names(e.asText(), used));
            }
        }
        assertThat(used).as("metrics the alert rules and the Grafana dashboard query").contains(
                "poolbudget_oversubscribed", "poolbudget_target_raise_pending_seconds", "poolbudget_conflicts",
                "poolbudget_reconciles_total", "poolbudget_budget_connections", "poolbudget_target_pool_size",
                "poolbudget_observed_over_budget", "poolbudget_observation_failing", "poolbudget_observed_connections");
        assertThat(exported).as("metrics the operator exports").containsAll(used);

        String reference = Files.readString(Path.of("docs/reference/metrics.md"));
        List<String> undocumented = exported.stream().filter(n -> n.startsWith("poolbudget_"))
                .filter(n -> !reference.contains("`" + n + "`")).toList();
        assertThat(undocumented).as("poolbudget_ metrics missing from docs/reference/metrics.md's tables").isEmpty();
    }

    private static boolean allApplied(PoolPolicy p) {
        return p.getStatus().getTargets().size() == 2
                && p.getStatus().getTargets().stream().allMatch(t -> "Applied".equals(t.getState()));
    }

    private static void names(String expr, Set<String> into) {
        var m = METRIC.matcher(expr);
        while (m.find()) {
            into.add(m.group(1));
        }
    }

    /** The status is patched after the metrics are set, so the two agree once the policy stands still. */
    private void awaitMetricsMatch(PoolPolicy first) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            var p = client.resources(PoolPolicy.class).inNamespace(ns).withName("db").get();
            assertThat(mismatches(p, Scrape.of(operator.port()))).isEmpty();
        });
        assertThat(first.getStatus().getBudget().getConnections()).isPositive();
    }

    private List<String> mismatches(PoolPolicy p, Scrape scrape) {
        var st = p.getStatus();
        Map<String, String> policy = Map.of("namespace", ns, "policy", "db", "database", "orders");
        List<String> wrong = new ArrayList<>();
        check(wrong, scrape, "poolbudget_budget_connections", policy, st.getBudget().getConnections());
        check(wrong, scrape, "poolbudget_allocated_connections", policy, st.getAllocated());
        check(wrong, scrape, "poolbudget_unallocated_connections", policy, st.getUnallocated());
        check(wrong, scrape, "poolbudget_live_connections", policy, st.getLiveConnections());
        check(wrong, scrape, "poolbudget_policy_ready", policy, st.getConditions().stream()
                .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True")) ? 1 : 0);
        check(wrong, scrape, "poolbudget_oversubscribed", policy, st.getConditions().stream()
                .anyMatch(c -> c.getType().equals("Oversubscribed") && c.getStatus().equals("True")
                        && c.getReason().equals("Oversubscribed")) ? 1 : 0);
        for (TargetStatus t : st.getTargets()) {
            var labels = new java.util.HashMap<>(policy);
            labels.put("kind", t.getKind());
            labels.put("workload", t.getName());
            check(wrong, scrape, "poolbudget_target_basis_replicas", labels, t.getBasisReplicas());
            check(wrong, scrape, "poolbudget_target_peak_pods", labels, t.getPeakPods());
            check(wrong, scrape, "poolbudget_target_pool_size", labels, t.getPoolSize());
            check(wrong, scrape, "poolbudget_target_applied_pool_size", labels, t.getAppliedPoolSize());
            check(wrong, scrape, "poolbudget_target_connections", labels, t.getConnections());
            check(wrong, scrape, "poolbudget_target_live_connections", labels, t.getLiveConnections());
        }
        return wrong;
    }

    private static void check(List<String> wrong, Scrape scrape, String name, Map<String, String> labels, Number want) {
        Double got = scrape.value(name, labels);
        if (got == null || want == null || !Objects.equals(got, want.doubleValue())) {
            wrong.add(name + labels + ": scrape " + got + ", status " + want);
        }
    }
}
