package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 53 at the database, on the JVM example app (Spring Boot, HikariCP) with a stabilisation window long enough that
 * nothing in these tests waits it out: what public apps showed a user. Turning resize Live on while a raise waits puts
 * the agent in at once, at the size the pods hold, and each pod's agent is in status as soon as its app is up. A budget
 * cut below what the pods hold, rolled out, passes the budget while old pods run beside new ones: status predicts that
 * peak, and PostgreSQL's own count meets it within one pod's pool.
 */
@Order(12)
class RealAppTruthsE2E extends OperatorTestBase {
    private static final String POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: %s}
            spec:
              database: {cores: 1, budget: %d}
              injection: {preset: spring-boot-hikari, resize: %s, liveDeadlineSeconds: 30}
              targets: [{name: %s}]
            """;

    @BeforeAll
    static void start() {
        startOperatorAsShipped("real-app-truths-e2e", "10m", Map.of("POOLBUDGET_AGENT_IMAGE",
                "poolbudget/operator:0.1.0-SNAPSHOT"));
    }

    @Test
    void turningLiveOnPutsTheAgentInAtOnceAndReportsEachPodsAgent() {
        create(RealApps.app(ns, "c", 2, Map.of(), 0));
        awaitRolledOut("c", 240);
        // 2 replicas + 1 surge + 1 terminating = 4 peak pods: budget 8 gives 2 per pod
        applyPolicy(POLICY.formatted("live-on", 8, "Rollout", "c"));
        var sized = awaitSettled("live-on", List.of("c"), 300);
        assertThat(target(sized, "c").getAppliedPoolSize()).isEqualTo(2);

        try (var sampler = ConnectionSampler.start(Set.of(RealApps.appName(ns, "c")))) {
            long asked = System.nanoTime();
            // a raise to 4 that waits for the 10-minute window, and Live turned on in the same change
            applyPolicy(POLICY.formatted("live-on", 16, "Live", "c"));
            Awaitility.await("the agent in c's template").atMost(60, TimeUnit.SECONDS)
                    .pollInterval(200, TimeUnit.MILLISECONDS).until(() -> deployment("c").getSpec().getTemplate()
                            .getSpec().getInitContainers().stream()
                            .anyMatch(i -> "poolbudget-agent".equals(i.getName())));
            double seconds = (System.nanoTime() - asked) / 1e9;
            var pending = awaitPolicy("live-on", p -> target(p, "c").getPendingSince() != null);
            assertThat(target(pending, "c").getAppliedPoolSize()).as("the agent went in at the size the pods hold")
                    .isEqualTo(2);
            assertThat(templateEnv("c", "SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE")).isEqualTo("2");

            PoolPolicy reported = awaitPolicy("live-on", p -> target(p, "c").getAgents() != null
                    && target(p, "c").getAgents().size() == 2 && "Live".equals(target(p, "c").getResize())
                    && target(p, "c").getAgents().stream().allMatch(a -> a.endsWith(": 1 pool found")), 240);
            System.out.printf("RealAppTruthsE2E: agent in the template %.1f s after Live was turned on; agents %s; "
                    + "at PostgreSQL at most %d of 8%n", seconds, target(reported, "c").getAgents(), sampler.peak());
            assertThat(client.v1().events().inNamespace(ns).list().getItems())
                    .as("no agent was said to have a problem: every one found its pool once its app was up")
                    .noneSatisfy(e -> assertThat(e.getReason()).isEqualTo("LiveAgentProblem"));
            assertThat(target(reported, "c").getPendingSince()).as("the raise still waits for its window")
                    .isEqualTo(target(pending, "c").getPendingSince());
            sampler.assertWithin("Live turned on while a raise waits: the agent adds no connection", 8);
        }
    }

    @Test
    void aCutRolledOutOverLargerPoolsPeaksWhereStatusSaid() {
        create(RealApps.app(ns, "d", 2, Map.of(), 0));
        awaitRolledOut("d", 240);
        // 2 replicas + 1 surge + 1 terminating = 4 peak pods: budget 8 gives 2 per pod, 4 gives 1
        applyPolicy(POLICY.formatted("cut", 8, "Rollout", "d"));
        awaitSettled("cut", List.of("d"), 300);

        try (var sampler = ConnectionSampler.start(Set.of(RealApps.appName(ns, "d")))) {
            applyPolicy(POLICY.formatted("cut", 4, "Rollout", "d"));
            PoolPolicy written = awaitPolicy("cut",
                    p -> Integer.valueOf(1).equals(target(p, "d").getAppliedPoolSize()));
            String note = target(written, "d").getMessage();
            var m = Pattern.compile("may hold up to (\\d+) of the budget's 4").matcher(note);
            assertThat(m.find()).as("status predicts the rollout's peak: " + note).isTrue();
            int predicted = Integer.parseInt(m.group(1));
            assertThat(note).as("and names what avoids it").contains("resize: Live", "maxSurge: 0");
            awaitSettled("cut", List.of("d"), 300);
            int measured = sampler.peak();
            System.out.printf("RealAppTruthsE2E: cut 2 -> 1 per pod under a rolling update: predicted %d, PostgreSQL "
                    + "at most %d, budget 4; %s%n", predicted, measured, note);
            assertThat(measured).as("PostgreSQL's peak against the prediction, within one pod's pool (1)")
                    .isBetween(predicted - 1, predicted);
        }
        awaitEvents(events -> assertThat(events).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("RolloutMayExceedBudget");
            assertThat(e.getMessage()).contains("Deployment/d 2 → 1");
        }));
    }
}
