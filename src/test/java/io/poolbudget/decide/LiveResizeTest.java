package io.poolbudget.decide;

import static io.poolbudget.decide.PolicyPassTest.policy;
import static io.poolbudget.decide.PolicyPassTest.web;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.poolbudget.decide.TargetOutcome.State;
import io.poolbudget.planning.InvalidPolicyException;
import io.poolbudget.planning.PolicyPlanner;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Resize mode Live as data: what the first write adds to the template, how a later size reaches running pods without
 * a template change, what counts as done (every pod's agent confirms), and the rollout a pod that does not confirm in
 * time gets instead.
 */
class LiveResizeTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final String IMAGE = "poolbudget/operator:test";
    // 2 replicas + 1 surge + 1 terminating = 4 peak pods; 8 cores x 2 = 16 -> size 4
    private static final String LIVE = """
            database: {cores: 8}
            injection: {preset: hikari-env, resize: Live}
            targets: [{name: web}]
            """;
    private static final String AGENT = "-javaagent:/poolbudget-agent/poolbudget-agent.jar=file=/etc/poolbudget/db/size,"
            + "waitMs=20000,port=9477";

    private static Decision decide(String spec, Deployment d, List<Pod> pods, Map<String, AgentReport> reports) {
        var p = policy("db", spec);
        var view = new ClusterView(List.of(d), List.of(), List.of(), pods, List.of()).withReports(reports);
        return PolicyPass.decide(p, view, List.of(p), null, NOW, Duration.ofMinutes(3), IMAGE);
    }

    /** The Deployment after a first live write at {@code started}, its pods to hold {@code live} now. */
    static Deployment liveWeb(int started, int live) {
        var d = web(started);
        var c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        c.setEnv(new ArrayList<>(c.getEnv()));
        c.getEnv().add(new EnvVar("JAVA_TOOL_OPTIONS", AGENT, null));
        d.getSpec().getTemplate().getMetadata().setAnnotations(Map.of("pool-size.poolbudget.io/db", "" + started));
        d.getMetadata().setAnnotations(Map.of("live-size.poolbudget.io/db", "" + live));
        return d;
    }

    private static Pod pod(String name, int started, Integer published) {
        Map<String, String> annotations = new HashMap<>(Map.of("pool-size.poolbudget.io/db", "" + started));
        if (published != null) {
            annotations.put("live-size.poolbudget.io/db", "" + published);
        }
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").withUid("uid-" + name)
                .withLabels(Map.of("app", "web", "poolbudget.io/sized", "true")).withAnnotations(annotations)
                .endMetadata().withNewSpec().addNewContainer().withName("app")
                .withEnv(new EnvVar("HIKARI_MAXIMUM_POOL_SIZE", "" + started, null)).endContainer().endSpec()
                .withNewStatus().withPodIP("10.0.0.1").endStatus().build();
    }

    private static AgentReport confirmed(int size) {
        return new AgentReport(size, true, size, size, null, 0);
    }

    @Test
    void theFirstWriteAddsTheAgentOnceAndRecordsTheLiveSize() {
        var d = decide(LIVE, web(null), List.of(), Map.of());
        var patch = (Deployment) d.writes().get(0).objects().get(0);
        assertThat(patch.getMetadata().getAnnotations()).containsEntry("live-size.poolbudget.io/db", "4");
        var spec = patch.getSpec().getTemplate().getSpec();
        assertThat(spec.getInitContainers()).singleElement().satisfies(init -> {
            assertThat(init.getImage()).isEqualTo(IMAGE);
            assertThat(init.getCommand()).contains("io.poolbudget.agent.Install");
        });
        assertThat(spec.getVolumes()).extracting(v -> v.getName()).containsExactly("poolbudget-agent",
                "poolbudget-live-db");
        assertThat(spec.getVolumes().get(1).getDownwardAPI().getItems().get(0).getFieldRef().getFieldPath())
                .isEqualTo("metadata.annotations['live-size.poolbudget.io/db']");
        assertThat(spec.getContainers()).singleElement().satisfies(c -> {
            assertThat(c.getEnv()).extracting(e -> e.getName() + "=" + e.getValue()).containsExactly(
                    "HIKARI_MAXIMUM_POOL_SIZE=4", "HIKARI_MINIMUM_IDLE=4", "JAVA_TOOL_OPTIONS=" + AGENT);
            assertThat(c.getVolumeMounts()).extracting(m -> m.getMountPath()).containsExactly("/poolbudget-agent",
                    "/etc/poolbudget/db");
        });
    }

    @Test
    void turningLiveOnAddsTheAgentAtOnceWhileARaiseWaitsForItsWindow() {
        // sized 2 by rollouts; Live turned on with a raise to 4 pending: the agent goes in now, at the size the pods
        // hold (no connection added), and the raise keeps waiting from when it was first held
        var d = web(2);
        d.getSpec().getTemplate().getMetadata().setAnnotations(Map.of("pool-size.poolbudget.io/db", "2"));
        var decision = decide(LIVE, d, List.of(pod("web-1", 2, null), pod("web-2", 2, null)), Map.of());
        assertThat(decision.writes()).singleElement().satisfies(w -> {
            var spec = ((Deployment) w.objects().get(0)).getSpec().getTemplate().getSpec();
            assertThat(spec.getInitContainers()).extracting(c -> c.getName()).containsExactly("poolbudget-agent");
            assertThat(spec.getContainers().get(0).getEnv()).extracting(e -> e.getName() + "=" + e.getValue())
                    .contains("HIKARI_MAXIMUM_POOL_SIZE=2", "JAVA_TOOL_OPTIONS=" + AGENT);
            assertThat(w.written().applied()).isEqualTo(2);
            assertThat(w.written().pendingSince()).as("the raise's window goes on").isEqualTo(NOW);
            assertThat(w.written().message()).contains("live-resize agent", "raise 2 → 4 waits for the "
                    + "stabilisation window");
        });
    }

    @Test
    void eachPodsAgentIsReportedAsSoonAsItsAppIsUpWithNoChangeInFlight() {
        // both pods started at 4 and nothing else was published: applied, and still each agent is shown
        var old = ready(pod("web-0", 4, 4)); // started before the agent went in: no agent to report on
        var pods = List.of(ready(withAgent(pod("web-1", 4, 4))), ready(withAgent(pod("web-2", 4, 4))),
                withAgent(pod("web-3", 4, 4)), old, readySince(withAgent(pod("web-4", 4, 4)), NOW.minusSeconds(2)));
        var broken = new AgentReport(null, false, 0, null, "its agent cannot read the pools: cannot read Quarkus' "
                + "datasources: argument type mismatch", 0, 0);
        var d = decide(LIVE, liveWeb(4, 4), pods, Map.of("uid-web-1", new AgentReport(4, true, 4, 4, null, 0, 1),
                "uid-web-2", broken, "uid-web-3", new AgentReport(null, false, 0, null, "no agent answers on port "
                        + "9477", 0, null),
                "uid-web-0", new AgentReport(null, false, 0, null, "no agent answers on "
                        + "port 9477", 0, null),
                "uid-web-4", new AgentReport(4, true, 0, 4, "its agent found no pool "
                        + "it resizes", 0, 0)));
        var target = d.result(List.of()).targets().get(0);
        assertThat(target.state()).isEqualTo(State.Applied);
        assertThat(target.resize().agents()).as("the problem first; web-3's app is not up yet, web-0 started "
                + "before the agent went in, web-4 is Ready for 2 s only (its app may build its pool on first use)")
                .containsExactly(
                        "web-2: its agent cannot read the pools: cannot read Quarkus' datasources: argument type mismatch",
                        "web-1: 1 pool found");
        assertThat(target.resize().agentProblems()).singleElement().asString().startsWith("web-2: ");
        assertThat(d.requeue()).as("looked at again when web-4 has been Ready 10 s: no event marks that moment")
                .isEqualTo(Duration.ofSeconds(8));

        var quiet = decide(LIVE, liveWeb(4, 4), List.of(pods.get(0), old), Map.of("uid-web-0", new AgentReport(null,
                false, 0, null, "no agent answers on port 9477", 0, null), "uid-web-1",
                new AgentReport(4, true, 4, 4, null, 0, 2)));
        assertThat(quiet.result(List.of()).targets().get(0).resize().agentProblems()).isEmpty();
        assertThat(quiet.result(List.of()).targets().get(0).resize().agents()).containsExactly("web-1: 2 pools found");
    }

    private static Pod withAgent(Pod p) {
        var c = p.getSpec().getContainers().get(0);
        c.setEnv(new ArrayList<>(c.getEnv()));
        c.getEnv().add(new EnvVar("JAVA_TOOL_OPTIONS", AGENT, null));
        return p;
    }

    private static Pod readySince(Pod p, Instant since) {
        p.getStatus().setConditions(List.of(new io.fabric8.kubernetes.api.model.PodConditionBuilder()
                .withType("Ready").withStatus("True").withLastTransitionTime(since.toString()).build()));
        return p;
    }

    private static Pod ready(Pod p) {
        p.getStatus().setConditions(List.of(new io.fabric8.kubernetes.api.model.PodConditionBuilder()
                .withType("Ready").withStatus("True").build()));
        return p;
    }

    @Test
    void theUsersJvmOptionsStayWhole() {
        var d = web(null);
        d.getSpec().getTemplate().getSpec().getContainers().get(0)
                .setEnv(List.of(new EnvVar("JAVA_TOOL_OPTIONS", "-Xmx256m", null)));
        var patch = (Deployment) decide(LIVE, d, List.of(), Map.of()).writes().get(0).objects().get(0);
        assertThat(patch.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .extracting(EnvVar::getName).contains("JDK_JAVA_OPTIONS").doesNotContain("JAVA_TOOL_OPTIONS");

        d.getSpec().getTemplate().getSpec().getContainers().get(0).setEnv(List.of(
                new EnvVar("JAVA_TOOL_OPTIONS", "-Xmx256m", null), new EnvVar("JDK_JAVA_OPTIONS", "-Xss1m", null)));
        var both = decide(LIVE, d, List.of(), Map.of());
        var template = ((Deployment) both.writes().get(0).objects().get(0)).getSpec().getTemplate().getSpec();
        assertThat(template.getInitContainers()).as("no agent: sized by rollouts").isEmpty();
        assertThat(both.writes().get(0).written().message()).contains("resize Live unavailable",
                "sets both JAVA_TOOL_OPTIONS and JDK_JAVA_OPTIONS");
    }

    @Test
    void aLaterSizeReachesRunningPodsWithoutATemplateChange() {
        var pods = List.of(pod("web-1", 10, 10), pod("web-2", 10, 10));
        var d = decide(LIVE, liveWeb(10, 10), pods, Map.of("uid-web-1", confirmed(10), "uid-web-2", confirmed(10)));
        var patch = (Deployment) d.writes().get(0).objects().get(0);
        assertThat(patch.getMetadata().getAnnotations()).containsEntry("live-size.poolbudget.io/db", "4");
        assertThat(patch.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .as("the template keeps the size its pods start with: no rollout")
                .extracting(e -> e.getName() + "=" + e.getValue()).contains("HIKARI_MAXIMUM_POOL_SIZE=10");
        assertThat(patch.getSpec().getTemplate().getMetadata().getAnnotations())
                .containsEntry("pool-size.poolbudget.io/db", "10");
        assertThat(d.podWrites()).extracting(w -> w.objects().get(0).getMetadata().getName() + "="
                + w.objects().get(0).getMetadata().getAnnotations().get("live-size.poolbudget.io/db"))
                .containsExactly("web-1=4", "web-2=4");
    }

    @Test
    void aShrinkIsDoneOnlyWhenEveryPodsAgentConfirmsIt() {
        var pods = List.of(pod("web-1", 10, 4), pod("web-2", 10, 4));
        var waiting = decide(LIVE, liveWeb(10, 4), pods, Map.of("uid-web-1", confirmed(4), "uid-web-2",
                new AgentReport(10, true, 10, 10, null, NOW.toEpochMilli() - 5_000)));
        assertThat(waiting.writes()).isEmpty();
        assertThat(waiting.podWrites()).isEmpty();
        var target = waiting.result(List.of()).targets().get(0);
        assertThat(target.state()).isEqualTo(State.Rolling);
        assertThat(target.message()).contains("resizing live to 4", "1 of 2 pods hold it",
                "web-2: its agent still reads size 10");
        assertThat(target.resize().confirmed()).isEqualTo(1);
        assertThat(waiting.requeue()).as("looked at again when web-2's deadline ends")
                .isEqualTo(Duration.ofSeconds(55));

        var done = decide(LIVE, liveWeb(10, 4), pods, Map.of("uid-web-1", confirmed(4), "uid-web-2", confirmed(4)));
        var applied = done.result(List.of()).targets().get(0);
        assertThat(applied.state()).isEqualTo(State.Applied);
        assertThat(applied.resize()).isEqualTo(new TargetOutcome.Resize("Live", 2, 2, List.of()));
    }

    @Test
    void aPodThatDoesNotConfirmInTimeGetsTheSizeByARollout() {
        var pods = List.of(pod("web-1", 10, 4), pod("web-2", 10, 4));
        var d = decide(LIVE, liveWeb(10, 4), pods, Map.of("uid-web-1", confirmed(4), "uid-web-2",
                new AgentReport(null, false, 0, null, "no agent answers on port 9477", NOW.toEpochMilli() - 61_000)));
        var patch = (Deployment) d.writes().get(0).objects().get(0);
        assertThat(patch.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .extracting(e -> e.getName() + "=" + e.getValue()).contains("HIKARI_MAXIMUM_POOL_SIZE=4");
        assertThat(d.writes().get(0).written().message()).contains("web-2 (no agent answers on port 9477)",
                "did not confirm size 4 within 60 s: it is rolled out instead");
    }

    @Test
    void whileAChangeIsInFlightAPodCountsAtTheLargerOfOldAndNew() {
        assertThat(LiveResize.held(10, 4, null)).as("asked to shrink, not confirmed").isEqualTo(10);
        assertThat(LiveResize.held(10, 4, confirmed(4))).isEqualTo(4);
        assertThat(LiveResize.held(4, 10, confirmed(4))).as("asked to grow: counted at once").isEqualTo(10);
        assertThat(LiveResize.held(10, 4, new AgentReport(6, false, 6, 6, null, 1))).isEqualTo(10);
        assertThat(LiveResize.held(3, 4, new AgentReport(6, false, 6, 6, null, 1))).isEqualTo(6);
    }

    @Test
    void liveGoesOnlyWithVariablesTheOperatorWrites() {
        var p = policy("db", """
                database: {cores: 8}
                injection: {preset: pgx, resize: Live}
                targets: [{name: web}]
                """);
        assertThatThrownBy(() -> PolicyPlanner.plan(p, new ClusterView(List.of(web(null)), List.of(), List.of(),
                List.of(), List.of()), null)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("spec.injection.resize may be Live only where the operator writes the size");
    }

    @Test
    void liveGoesOnlyWithPoolsTheAgentResizesAndTheOthersStayQuiet() {
        var reactive = policy("db", """
                database: {cores: 8}
                injection: {preset: quarkus-reactive, resize: Live}
                targets: [{name: web}]
                """);
        assertThatThrownBy(() -> PolicyPlanner.plan(reactive, new ClusterView(List.of(web(null)), List.of(),
                List.of(), List.of(), List.of()), null)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("spec.injection.resize may be Live only for pools the operator's agent resizes")
                .hasMessageContaining("Leave resize at Rollout");
        for (String preset : List.of("quarkus-agroal", "keycloak", "micronaut-hikari", "spring-boot-hikari")) {
            var ok = policy("db", """
                    database: {cores: 8}
                    injection: {preset: %s, resize: Live}
                    targets: [{name: web}]
                    """.formatted(preset));
            assertThat(PolicyPlanner.plan(ok, new ClusterView(List.of(web(null)), List.of(), List.of(), List.of(),
                    List.of()), null)).as(preset).isNotNull();
        }
    }
}
