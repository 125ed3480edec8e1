package io.poolbudget.decide;

import static io.poolbudget.decide.PolicyPassTest.policy;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.poolbudget.decide.TargetOutcome.State;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Mode Demand through a whole pass: a lender's smaller size is published at once, and the borrower's larger one waits,
 * not for the stabilisation window, but until every one of the lender's pods confirms the smaller size.
 */
class DemandShrinkFirstTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final String SPEC = """
            database: {cores: 40}
            injection: {preset: hikari-env, resize: Live}
            allocation: {mode: Demand}
            targets: [{name: web}, {name: api}]
            """;

    /** Deployment {@code name} with the agent in, started at {@code started}, its pods to hold {@code live}. */
    private static Deployment live(String name, int started, int live) {
        var d = LiveResizeTest.liveWeb(started, live);
        d.getMetadata().setName(name);
        d.getSpec().getSelector().setMatchLabels(Map.of("app", name));
        return d;
    }

    private static Pod pod(String app, int i, int started, int published) {
        return new PodBuilder().withNewMetadata().withName(app + "-" + i).withNamespace("ns").withUid(app + i)
                .withLabels(Map.of("app", app, "poolbudget.io/sized", "true"))
                .withAnnotations(Map.of("pool-size.poolbudget.io/db", "" + started, "live-size.poolbudget.io/db",
                        "" + published))
                .endMetadata().withNewSpec().addNewContainer().withName("app")
                .withEnv(new EnvVar("HIKARI_MAXIMUM_POOL_SIZE", "" + started, null)).endContainer().endSpec()
                .withNewStatus().withPodIP("10.0.0." + i).endStatus().build();
    }

    /** A pod's agent: confirms {@code size} or still holds {@code holds}; its demand per pod. */
    private static AgentReport agent(int published, int holds, int demand) {
        return new AgentReport(published, published == holds, holds, holds, null,
                published == holds ? 0 : NOW.toEpochMilli(), 1, demand);
    }

    private record Pass(Decision decision, Map<String, TargetOutcome> targets) {}

    /** web's pods published {@code webLive}, holding {@code webHolds}; api's at {@code apiLive}. */
    private static Pass pass(int webLive, int webHolds, int apiLive, DemandState state, Instant now) {
        List<Pod> pods = List.of(pod("web", 1, 10, webLive), pod("web", 2, 10, webLive), pod("api", 3, 10, apiLive),
                pod("api", 4, 10, apiLive));
        Map<String, AgentReport> reports = new HashMap<>();
        reports.put("web1", agent(webLive, webHolds, 1));
        reports.put("web2", agent(webLive, webHolds, 1));
        reports.put("api3", agent(apiLive, apiLive, 30));
        reports.put("api4", agent(apiLive, apiLive, 30));
        var p = policy("db", SPEC);
        var view = new ClusterView(List.of(live("web", 10, webLive), live("api", 10, apiLive)), List.of(), List.of(),
                pods, List.of()).withReports(reports);
        var d = PolicyPass.decide(p, view, List.of(p), null, now, Duration.ofMinutes(3), "poolbudget/operator:test",
                new DemandInput(state, Map.of(), Map.of()));
        Map<String, TargetOutcome> targets = new HashMap<>();
        d.result(d.writes().stream().map(w -> (String) null).toList()).targets()
                .forEach(t -> targets.put(t.name(), t));
        return new Pass(d, targets);
    }

    @Test
    void theBorrowerGetsMoreOnlyOnceTheLendersPodsConfirmLess() {
        var first = pass(10, 10, 10, DemandState.EMPTY, NOW);
        var rows = first.decision().demand().rows();
        assertThat(rows.get("Deployment/web").nominal()).isEqualTo(10);
        int lent = rows.get("Deployment/web").size();
        int borrowed = rows.get("Deployment/api").size();
        assertThat(lent).isEqualTo(5);
        assertThat(borrowed).isEqualTo(15);
        assertThat(first.decision().demand().readClosely()).as("every pod whose size follows demand, watched")
                .containsExactlyInAnyOrder("web1", "web2", "api3", "api4");
        assertThat(first.targets().get("web").state()).isEqualTo(State.Rolling);
        assertThat(first.decision().podWrites()).extracting(w -> w.objects().get(0).getMetadata().getName() + "="
                + w.objects().get(0).getMetadata().getAnnotations().get("live-size.poolbudget.io/db"))
                .as("only the lender's pods are told a size").containsExactly("web-1=5", "web-2=5");
        var api = first.targets().get("api");
        assertThat(api.state()).isEqualTo(State.Pending);
        assertThat(api.message()).contains("waits until these finish rolling out: Deployment/web (shrinking)")
                .doesNotContain("stabilisation window");

        var unconfirmed = pass(5, 10, 10, first.decision().demand().state(), NOW.plusSeconds(10));
        assertThat(unconfirmed.targets().get("api").state()).as("web's pods still hold 10").isEqualTo(State.Pending);
        assertThat(unconfirmed.targets().get("api").message()).contains("Deployment/web (rolling out)");
        assertThat(unconfirmed.decision().podWrites()).isEmpty();
        assertThat(unconfirmed.targets().get("web").held().connections()).as("counted at its larger size")
                .isEqualTo(20);

        var confirmed = pass(5, 5, 10, unconfirmed.decision().demand().state(), NOW.plusSeconds(20));
        assertThat(confirmed.decision().podWrites()).extracting(w -> w.objects().get(0).getMetadata().getName() + "="
                + w.objects().get(0).getMetadata().getAnnotations().get("live-size.poolbudget.io/db"))
                .containsExactly("api-3=15", "api-4=15");
        assertThat(confirmed.decision().requeue()).as("looked at again within a period")
                .isLessThanOrEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void recommendWritesNothing() {
        var p = policy("db", SPEC.replace("mode: Demand", "mode: Recommend"));
        List<Pod> pods = List.of(pod("web", 1, 10, 10), pod("api", 3, 10, 10));
        var view = new ClusterView(List.of(live("web", 10, 10), live("api", 10, 10)), List.of(), List.of(), pods,
                List.of()).withReports(Map.of("web1", agent(10, 10, 1), "api3", agent(10, 10, 30)));
        var d = PolicyPass.decide(p, view, List.of(p), null, NOW, Duration.ofMinutes(3), "poolbudget/operator:test",
                DemandInput.NONE);
        assertThat(d.writes()).isEmpty();
        assertThat(d.podWrites()).isEmpty();
        assertThat(d.demand().rows().get("Deployment/api").recommended()).isGreaterThan(10);
        assertThat(d.demand().recommendations()).hasSize(2);
        assertThat(d.demand().readClosely()).as("Recommend lends nothing: no pod read more often").isEmpty();
    }
}
