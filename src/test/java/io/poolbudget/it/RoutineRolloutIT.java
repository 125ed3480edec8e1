package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 20, found 1: a plain {@code kubectl rollout restart} of a sized app must not read as over budget. Every
 * pod here stays Terminating ~1 s holding its pool ({@link GracefulShutdown}), so old and new pods overlap as in
 * a real rollout. A watch on the policy records every status it wrote; a {@link LiveSampler} sums what the pods
 * hold at every pod event, which is what the database would count.
 */
class RoutineRolloutIT extends OperatorTestBase {
    private static final int ROLLOUTS = 10;

    @BeforeAll
    static void start() {
        startOperator("routine-rollout", "0s");
        GracefulShutdown.ensureRunning(TestCluster.of(RoutineRolloutIT.class).client());
    }

    private void restart(int i) {
        rolloutRestart("web", "r" + i);
    }

    private void awaitNoTerminatingPods() {
        org.awaitility.Awaitility.await().atMost(60, TimeUnit.SECONDS).until(() -> client.pods().inNamespace(ns)
                .withLabel("app", "web").list().getItems().stream().noneMatch(p -> p.getMetadata()
                        .getDeletionTimestamp() != null));
    }

    private List<Event> warnings() {
        return client.v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> "Warning".equals(e.getType()) && "PoolPolicy".equals(e.getInvolvedObject().getKind()))
                .toList();
    }

    /** What a run of rollouts showed: what the pods held at most, what the operator said. */
    private record Run(int podsPeak, long reportedPeak, List<String> alarms) {}

    private Run rollouts(int count, int budget, boolean stopWhenOver) throws Exception {
        var log = new StatusLog();
        try (var sampler = LiveSampler.start(client, ns, MAX, 10);
                var watch = client.resources(PoolPolicy.class).inNamespace(ns).withName("db").watch(log)) {
            for (int i = 0; i < count && !(stopWhenOver && sampler.peak() > budget); i++) {
                restart(budget * 100 + i);
                awaitRolledOut("web");
                awaitNoTerminatingPods();
            }
            awaitPolicy("db", targetState("web", "Applied", 2).and(p -> p.getStatus().getLiveConnections() == 8));
            TimeUnit.SECONDS.sleep(2); // a late pass would still be seen
            var run = new Run(sampler.peak(), log.mostLive(), log.alarms());
            System.out.printf(
                    "RoutineRolloutIT budget %d: %d pod events, the pods held at most %d; the operator reported "
                            + "at most %d; alarms: %s%n",
                    budget, sampler.events(), run.podsPeak(), run.reportedPeak(), run.alarms());
            return run;
        }
    }

    @Test
    void tenRolloutsAtABudgetThatFitsRaiseNoAlarmAndOneShortDoes() throws Exception {
        var d = GracefulShutdown.hold(deployment("web", 4, Map.of()));
        d.getSpec().getTemplate().getMetadata().setAnnotations(new java.util.HashMap<>());
        create(d);
        awaitRolledOut("web");
        // 4 replicas + 1 surge + 1 terminating (pinned: KWOK's instant readiness would otherwise teach the operator
        // that all 4 old pods terminate at once) = 6 peak pods -> 2 per pod. A rollout can still overlap all 4 old pods
        // with the new ones: 8 pods × 2 = 16 at the most, which a budget of 16 holds.
        String policy = WEB_POLICY.replace("{name: web}", "{name: web, terminatingPods: 1}");
        applyPolicy(policy.formatted(8));
        awaitPolicy("db", targetState("web", "Applied", 2).and(p -> p.getStatus().getLiveConnections() == 8));
        awaitRolledOut("web");
        awaitNoTerminatingPods();

        // the onboarding itself was a true alarm (4 pods at HikariCP's default 10 = 40 of 16): only what follows counts
        var before = warnings().stream().map(e -> e.getMetadata().getUid()).toList();
        var fits = rollouts(ROLLOUTS, 16, false);
        assertThat(fits.podsPeak()).as("most the pods held at one moment").isLessThanOrEqualTo(16);
        assertThat(fits.alarms()).as("over-budget or not-Ready reports during routine rollouts").isEmpty();
        assertThat(fits.reportedPeak()).as("most liveConnections the operator reported")
                .isLessThanOrEqualTo(fits.podsPeak());
        assertThat(warnings()).as("Warning Events during the rollouts")
                .filteredOn(e -> !before.contains(e.getMetadata().getUid())).isEmpty();

        // One short of what the pods can hold: the plan (6 peak pods × 2 = 12) still fits 15, but a rollout in which all
        // 4 old pods overlap the new ones makes the database see 16 of 15. That must be reported.
        applyPolicy(policy.replace("{cores: %d}", "{cores: 1, budget: 15}"));
        awaitPolicy("db", p -> p.getStatus().getBudget() != null && p.getStatus().getBudget().getConnections() == 15);
        var over = rollouts(ROLLOUTS, 15, true);
        assertThat(over.podsPeak()).as("a rollout overlapped old and new pods past 15").isGreaterThan(15);
        assertThat(over.alarms()).as("the over-budget report").anySatisfy(a -> assertThat(a)
                .startsWith("Oversubscribed=True LiveOverBudget: the pods hold 16 of 15 connections"));
        awaitEvents(events -> assertThat(events).anySatisfy(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("LiveOverBudget");
        }));
    }
}
