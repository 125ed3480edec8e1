package io.poolbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** spec.allocation (issue 55): the example plans, and plan refuses what the CRD refuses, naming the field. */
class PlanAllocationTest {

    @Test
    void theExamplePlans() {
        var run = PlanCommandTest.plan("", "-f", "examples/allocation/demand.yaml");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("PoolPolicy shop-db: fits");
        assertThat(run.out()).contains("Allocation by demand (mode Demand, by live resize; lendable 50%, borrowing "
                + "limit 100%, every 10 s)", "TARGET", "NOMINAL", "FLOOR", "CEILING", "LENDABLE", "BORROWABLE");
        // each row: nominal n, floor n - n/2 (half may be lent), ceiling 2n (as much again may be borrowed), and the
        // connections at peak pods those ranges are, where the table above says its peak pods
        for (String target : new String[]{"Deployment/storefront", "Deployment/reports"}) {
            var row = java.util.regex.Pattern.compile(target + " +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+)\\n")
                    .matcher(run.out());
            assertThat(row.find()).as(run.out()).isTrue();
            int n = Integer.parseInt(row.group(1));
            assertThat(Integer.parseInt(row.group(2))).isEqualTo(n - n / 2);
            assertThat(Integer.parseInt(row.group(3))).isEqualTo(2 * n);
            var peak = java.util.regex.Pattern.compile(target + " +\\S+ \\(\\w+\\) +(\\d+) +(\\d+)").matcher(run.out());
            assertThat(peak.find()).isTrue();
            long cost = Long.parseLong(peak.group(1)) * Long.parseLong(peak.group(2));
            assertThat(Long.parseLong(row.group(4))).isEqualTo(cost * (n / 2));
            assertThat(Long.parseLong(row.group(5))).isEqualTo(cost * n);
        }
    }

    @Test
    void jsonCarriesTheTablesRangesAndTheSettings() throws Exception {
        var table = PlanCommandTest.plan("", "-f", "examples/allocation/demand.yaml").out();
        var run = PlanCommandTest.plan("", "-f", "examples/allocation/demand.yaml", "-o", "json");
        assertThat(run.exit()).as(run.err()).isZero();
        var policy = new ObjectMapper().readTree(run.out()).path("policies").get(0);
        assertThat(policy.path("allocation").toString()).isEqualTo(
                "{\"mode\":\"Demand\",\"lendablePercent\":50,\"borrowingLimitPercent\":100,\"periodSeconds\":10}");
        assertThat(policy.path("targets")).hasSize(2);
        for (var t : policy.path("targets")) {
            var row = Pattern.compile(t.path("workload").asText() + " +(\\d+) +(\\d+) +(\\d+) +(\\d+) +(\\d+)\\n")
                    .matcher(table);
            assertThat(row.find()).as(table).isTrue();
            var range = t.path("allocation");
            assertThat(range.path("nominalPoolSize").asInt()).isEqualTo(t.path("poolSize").asInt())
                    .isEqualTo(Integer.parseInt(row.group(1)));
            assertThat(range.path("floorPoolSize").asText()).isEqualTo(row.group(2));
            assertThat(range.path("ceilingPoolSize").asText()).isEqualTo(row.group(3));
            assertThat(range.path("lendableConnections").asText()).isEqualTo(row.group(4));
            assertThat(range.path("borrowableConnections").asText()).isEqualTo(row.group(5));
        }
    }

    @Test
    void jsonSaysTheSettingsWithDefaultsAppliedAndNothingWithModeWeights() throws Exception {
        var mapper = new ObjectMapper();
        var recommend = mapper.readTree(plan("{preset: hikari-env}", "{mode: Recommend, lendablePercent: 30}", "json")
                .out()).path("policies").get(0);
        assertThat(recommend.path("allocation").toString()).isEqualTo(
                "{\"mode\":\"Recommend\",\"lendablePercent\":30,\"borrowingLimitPercent\":100,\"periodSeconds\":10}");
        var target = recommend.path("targets").get(0);
        var range = target.path("allocation");
        int nominal = range.path("nominalPoolSize").asInt();
        assertThat(nominal).isEqualTo(target.path("poolSize").asInt()).isPositive();
        assertThat(range.path("floorPoolSize").asInt()).isEqualTo(nominal - nominal * 30 / 100);
        assertThat(range.path("ceilingPoolSize").asInt()).isEqualTo(2 * nominal);
        long cost = target.path("peakPods").asLong() * target.path("poolsPerPod").asLong();
        assertThat(range.path("lendableConnections").asLong()).isEqualTo(cost * (nominal * 30 / 100));
        assertThat(range.path("borrowableConnections").asLong()).isEqualTo(cost * nominal);
        var weights = mapper.readTree(plan("{preset: hikari-env}", "{mode: Weights}", "json").out()).path("policies")
                .get(0);
        assertThat(weights.has("allocation")).isFalse();
        assertThat(weights.path("targets").get(0).has("allocation")).isFalse();
        assertThat(weights.path("targets").get(0).has("poolSize")).isTrue();
    }

    @Test
    void weightsPlansNoDemandSection() {
        assertThat(plan("{preset: hikari-env}", "{mode: Weights}").out()).doesNotContain("Allocation by demand");
        assertThat(plan("{preset: hikari-env}", "{mode: Recommend}").out()).contains("Allocation by demand (mode "
                + "Recommend: recommended in status, nothing written;");
    }

    @Test
    void numbersWithModeWeightsAreRefused() {
        for (String field : new String[]{"lendablePercent: 20", "borrowingLimitPercent: 50", "periodSeconds: 30"}) {
            var run = plan("{preset: hikari-env}", "{" + field + "}");
            assertThat(run.exit()).as(run.out()).isEqualTo(PlanCommand.BAD_INPUT);
            assertThat(run.err()).contains("spec.allocation." + field.substring(0, field.indexOf(':'))
                    + " does nothing with mode Weights (the default): remove it, or set allocation.mode: Demand");
        }
    }

    @Test
    void demandWithoutLiveResizeIsRefused() {
        var run = plan("{preset: hikari-env}", "{mode: Demand}");
        assertThat(run.exit()).as(run.out()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(run.err()).contains("spec.allocation.mode Demand moves connections only by live resize: set "
                + "spec.injection.resize: Live");
    }

    @Test
    void recommendNeedsNoLiveResizeAndDemandPlansWithIt() {
        assertThat(plan("{preset: hikari-env}", "{mode: Recommend, lendablePercent: 30}").exit()).isZero();
        assertThat(plan("{preset: hikari-env, resize: Live}", "{mode: Demand, periodSeconds: 5}").exit()).isZero();
        assertThat(plan("{preset: hikari-env}", "{mode: Weights}").exit()).isZero();
    }

    @Test
    void numbersOutOfBoundsAreRefused() {
        var run = plan("{preset: hikari-env}", "{mode: Recommend, periodSeconds: 4}");
        assertThat(run.exit()).as(run.out()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(run.err()).contains("spec.allocation.periodSeconds must be at least 5, got 4");
        run = plan("{preset: hikari-env}", "{mode: Recommend, lendablePercent: 101}");
        assertThat(run.err()).contains("spec.allocation.lendablePercent must be at most 100, got 101");
    }

    private static PlanCommandTest.Run plan(String injection, String allocation) {
        return plan(injection, allocation, "table");
    }

    private static PlanCommandTest.Run plan(String injection, String allocation, String output) {
        return PlanCommandTest.plan("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db}
                spec: {database: {budget: 20}, injection: %s, allocation: %s, targets: [{name: api}]}
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: api}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: api}}
                  template: {metadata: {labels: {app: api}}, spec: {containers: [{name: app, image: api}]}}
                """.formatted(injection, allocation), "-f", "-", "-o", output);
    }
}
