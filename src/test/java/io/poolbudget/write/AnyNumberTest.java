package io.poolbudget.write;

import static io.poolbudget.decide.PolicyPassTest.gitea;
import static io.poolbudget.decide.PolicyPassTest.policy;
import static io.poolbudget.decide.PolicyPassTest.view;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Event;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.decide.PassResult;
import io.poolbudget.decide.Passes;
import io.poolbudget.decide.PolicyPassTest;
import io.poolbudget.memory.PolicyMemory;
import io.poolbudget.metrics.PolicyMetrics;
import io.poolbudget.status.StatusAggregator;
import io.poolbudget.web.DashboardView;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 53, found 6: pods of an app with no pool limit (preset gitea without its variable) are counted at the largest
 * pool size, 1,000,000, and that number reached users: "the app's default 1000000" in an Event, status.liveConnections
 * 2000002. What they may open is any number: said so in status, Events, metrics and the dashboard, and no sum with one
 * of them in it is a number.
 */
class AnyNumberTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A number of 7 digits or more: no budget here comes near one, only the count of a pod without a limit. */
    private static final String SENTINEL = "\\d{7,}";

    private final PoolPolicy policy = policy("db", "database: {budget: 16}\ninjection: {preset: gitea}\n"
            + "targets: [{name: web}, {name: api}]\n");
    /** web sized at 1 and settled (its pods are counted from their specs: none in this view); api's 2 pods not sized
     * yet, without a limit. */
    private final PassResult result = Passes.run(policy, view(gitea("web", 1), gitea("api", null)), List.of(policy),
            new PolicyPassTest.RecordingWriter(), NOW, Duration.ofMinutes(3));

    {
        policy.setStatus(new StatusAggregator(Clock.fixed(NOW, ZoneOffset.UTC)).status(policy, result, List.of()));
    }

    @Test
    void statusSaysAnyNumberAndNoSum() throws Exception {
        var status = policy.getStatus();
        assertThat(JSON.writeValueAsString(status)).doesNotContainPattern(SENTINEL)
                .contains("\"liveConnectionsUnbounded\":true");
        assertThat(status.getLiveConnections()).as("no sum: one of its terms is any number").isNull();
        assertThat(status.getConditions()).filteredOn(c -> c.getType().equals("Oversubscribed")).singleElement()
                .satisfies(c -> assertThat(c.getMessage()).startsWith("the pods may open any number of connections"));
        assertThat(status.getTargets()).filteredOn(t -> "api".equals(t.getName())).singleElement().satisfies(t -> {
            assertThat(t.getLiveConnections()).isNull();
            assertThat(t.getMessage()).endsWith("its pods may open any number of connections (no pool limit until "
                    + "sized)");
        });
        assertThat(status.getTargets()).filteredOn(t -> "web".equals(t.getName())).singleElement()
                .satisfies(t -> assertThat(t.getLiveConnections()).as("a count, where there is one").isZero());
    }

    @Test
    void eventsSayAnyNumber() throws Exception {
        var recording = new RecordingClient();
        var events = new PolicyEvents(recording.client, new PolicyMemory());
        events.record(policy, result, policy.getStatus());
        var sent = recording.sent(events);
        assertThat(sent).extracting(Event::getMessage).isNotEmpty()
                .allSatisfy(m -> assertThat(m).doesNotContainPattern(SENTINEL));
        assertThat(sent).filteredOn(e -> PolicyEvents.APPLIED.equals(e.getReason())).extracting(Event::getMessage)
                .singleElement().satisfies(m -> assertThat(m).startsWith("Deployment/api: pool size ")
                        .contains("the pods have no pool limit until sized: they may open any number of connections"));
    }

    @Test
    void metricsSayInfinity() {
        var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new PolicyMetrics(registry, Clock.fixed(NOW, ZoneOffset.UTC)).record("ns", "db", null, policy.getStatus());
        String scrape = registry.scrape().replace(",}", "}");
        assertThat(scrape).doesNotContainPattern(SENTINEL).contains(
                "poolbudget_live_connections{database=\"\",namespace=\"ns\",policy=\"db\"} +Inf",
                "poolbudget_target_live_connections{database=\"\",kind=\"Deployment\",namespace=\"ns\",policy=\"db\","
                        + "workload=\"api\"} +Inf",
                "poolbudget_target_live_connections{database=\"\",kind=\"Deployment\",namespace=\"ns\",policy=\"db\","
                        + "workload=\"web\"} 0.0");
    }

    @Test
    void theDashboardSaysAnyNumber() throws Exception {
        var page = DashboardView.page(List.of(policy), List.of(), new DashboardView.Query(null, null, false, 1, 25),
                Duration.ofMinutes(3));
        String json = JSON.writeValueAsString(page);
        assertThat(json).doesNotContainPattern(SENTINEL);
        assertThat(JSON.readTree(json).at("/totals/liveAnyNumber").asBoolean()).isTrue();
        assertThat(JSON.readTree(json).at("/policies/0/liveAnyNumber").asBoolean()).isTrue();
    }
}
