package io.poolbudget.install;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 21, item 3: the chart's alerts tested the way the ecosystem tests rules. The chart's PrometheusRule, rendered by
 * helm, goes through {@code promtool check rules} and {@code promtool test rules} with the cases in
 * src/test/promtool/poolbudget-alerts.test.yaml, whose series carry the labels Prometheus Operator gives them under the
 * chart's ServiceMonitor (honorLabels). The checks can fail: a rule that drops the namespace from its grouping, and the
 * same series as Prometheus Operator relabels them without honorLabels, each fail the tests.
 */
class AlertRulesIT {
    private static final Path TESTS = Path.of("src/test/promtool/poolbudget-alerts.test.yaml");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static Path dir;
    private static JsonNode rules;

    @BeforeAll
    static void render() throws Exception {
        JsonNode rule = ChartTools.render("poolbudget-system", "prometheusRule.enabled=true").stream()
                .filter(d -> d.path("kind").asText().equals("PrometheusRule")).findFirst().orElseThrow();
        rules = rule.path("spec");
        dir = Files.createDirectories(Path.of("target/promtool"));
    }

    /** Runs promtool test rules on these rules and this test file; the result. */
    private static ChartTools.Result test(JsonNode ruleFile, String tests) throws Exception {
        Files.writeString(dir.resolve("rules.yaml"), YAML.writeValueAsString(ruleFile));
        Files.writeString(dir.resolve("alerts.test.yaml"), tests);
        return ChartTools.promtool(dir, "test", "rules", "alerts.test.yaml");
    }

    static List<String> alerts() {
        var names = new ArrayList<String>();
        rules.path("groups").forEach(g -> g.path("rules").forEach(r -> names.add(r.path("alert").asText())));
        return names;
    }

    @Test
    void theRulesAreValidAndEveryCasePasses() throws Exception {
        Files.writeString(dir.resolve("rules.yaml"), YAML.writeValueAsString(rules));
        var check = ChartTools.promtool(dir, "check", "rules", "rules.yaml");
        assertThat(check.exit()).as(check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS: " + alerts().size() + " rules found");

        var run = test(rules, Files.readString(TESTS));
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("SUCCESS").doesNotContain("FAILED");
    }

    @Test
    void everyAlertHasACaseWhereItFiresAndOneWhereItStaysQuiet() throws Exception {
        Set<String> fires = new TreeSet<>();
        Set<String> quiet = new TreeSet<>();
        YAML.readTree(TESTS.toFile()).path("tests").forEach(group -> group.path("alert_rule_test")
                .forEach(c -> (c.path("exp_alerts").isEmpty() ? quiet : fires).add(c.path("alertname").asText())));
        assertThat(alerts()).hasSizeGreaterThanOrEqualTo(7);
        assertThat(fires).as("alerts with a firing case").containsAll(alerts());
        assertThat(quiet).as("alerts with a quiet case").containsAll(alerts());
    }

    static List<String> groupedByNamespace() {
        var names = new ArrayList<String>();
        rules.path("groups").forEach(g -> g.path("rules").forEach(r -> {
            if (r.path("expr").asText().contains("by (namespace, ")) {
                names.add(r.path("alert").asText());
            }
        }));
        return names;
    }

    /** A rule whose labels are wrong (the policy's namespace dropped from its grouping) fails its cases. */
    @ParameterizedTest
    @MethodSource("groupedByNamespace")
    void aRuleThatLosesTheNamespaceFails(String alert) throws Exception {
        JsonNode broken = rules.deepCopy();
        broken.path("groups").forEach(g -> g.path("rules").forEach(r -> {
            if (r.path("alert").asText().equals(alert)) {
                ((ObjectNode) r).put("expr", r.path("expr").asText().replace("by (namespace, ", "by ("));
            }
        }));
        var run = test(broken, Files.readString(TESTS));
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("FAILED").contains("alertname: " + alert);
    }

    /** Without honorLabels Prometheus Operator renames the series' namespace exported_namespace: the alerts are wrong. */
    @Test
    void seriesRelabelledWithoutHonorLabelsFail() throws Exception {
        String relabelled = Files.readString(TESTS).replaceAll("namespace=\"(team-[a-z])\"",
                "exported_namespace=\"$1\",namespace=\"poolbudget-system\"");
        assertThat(relabelled).contains("exported_namespace=\"team-a\"");
        var run = test(rules, relabelled);
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("FAILED").contains("namespace=\"poolbudget-system\"");
    }
}
