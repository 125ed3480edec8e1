package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 41, found 1, at the database: an app that cannot start on a pool of 1 (the example app taking two connections
 * at once while it starts, as Keycloak does). Its budget goes down until the plan gives it 1 and its rollout stalls;
 * then back up. The plan's 2 is what its running pods hold: the operator writes it at once, without waiting for its
 * stabilisation window or for the stalled rollout, and the target settles with no manual step. The stall is reported
 * for as long as it lasts, and PostgreSQL's own count stays within the budget throughout.
 */
@Order(3)
class StalledRaiseE2E extends OperatorTestBase {
    /** Longer than the test waits for the settle: a raise that waited for the window would fail it. */
    private static final String WINDOW = "5m";
    private static final String POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: kc-db}
            spec:
              database: {cores: 1, budget: %d}
              injection: {preset: spring-boot-hikari}
              targets: [{name: kc}]
            """;

    @BeforeAll
    static void start() {
        startOperatorAsShipped("stalled-raise-e2e", WINDOW);
    }

    /**
     * The target's state and the Ready reason of every status the operator wrote, in order, with the policy's generation
     * (the spec it answers: a watch event may arrive late on a busy machine, a generation does not change).
     */
    private static final class States implements Watcher<PoolPolicy> {
        final List<String> seen = new ArrayList<>();
        final List<Long> generation = new ArrayList<>();

        @Override
        public synchronized void eventReceived(Action action, PoolPolicy p) {
            var t = p.getStatus() == null ? null : target(p, "kc");
            if (t == null) {
                return;
            }
            String ready = p.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType()))
                    .map(c -> c.getReason()).findFirst().orElse("?");
            String entry = t.getState() + "@" + t.getAppliedPoolSize() + "/" + ready;
            if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(entry)) {
                seen.add(entry);
                generation.add(p.getMetadata().getGeneration());
            }
        }

        synchronized List<String> seen() {
            return List.copyOf(seen);
        }

        /** The states seen from the first stall until the spec of generation {@code until}. */
        synchronized List<String> fromFirstStallUntil(long until) {
            List<String> during = new ArrayList<>();
            boolean stalled = false;
            for (int i = 0; i < seen.size() && generation.get(i) < until; i++) {
                stalled |= seen.get(i).startsWith("Stalled");
                if (stalled) {
                    during.add(seen.get(i));
                }
            }
            return during;
        }

        @Override
        public void onClose(WatcherException cause) {}
    }

    @Test
    void aRaiseThatAloneEndsAStalledRolloutIsWrittenAtOnceAndTheTargetSettles() throws Exception {
        var kc = RealApps.app(ns, "kc", 3, Map.of(), 2);
        var env = kc.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv();
        env.add(new EnvVar("STARTUP_CONNECTIONS", "2", null));
        env.add(new EnvVar("SPRING_DATASOURCE_HIKARI_CONNECTIONTIMEOUT", "2000", null)); // fail fast on a pool of 1
        create(kc);
        awaitRolledOut("kc", 240);
        // 3 replicas + 1 surge + 1 terminating = 5 peak pods: budget 12 -> 2 per pod
        applyPolicy(POLICY.formatted(12));
        awaitPolicy("kc-db", targetState("kc", "Applied", 2), 240);
        awaitRolledOut("kc", 240);
        Awaitility.await("kc's old pods gone").atMost(120, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .until(() -> client.pods().inNamespace(ns).withLabel("app", "kc").list().getItems().stream()
                        .noneMatch(p -> p.getMetadata().getDeletionTimestamp() != null));

        var states = new States();
        var atEight = ConnectionSampler.start(Set.of(RealApps.appName(ns, "kc")));
        ConnectionSampler atTwelve = null;
        try (var watch = client.resources(PoolPolicy.class).inNamespace(ns).withName("kc-db").watch(states)) {
            // budget 8 -> 1 per pod: the new pod cannot start, the old ones keep 2
            applyPolicy(POLICY.formatted(8));
            var stalled = awaitPolicy("kc-db", p -> target(p, "kc") != null && "Stalled".equals(target(p, "kc")
                    .getState()), 240);
            assertThat(target(stalled, "kc").getMessage())
                    .startsWith("pool size 1 has not taken effect: its new pod kc-")
                    .contains("set spec.targets[0].minPoolSize: 2 or give the database more budget");
            assertThat(stalled.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Ready")).singleElement()
                    .satisfies(c -> assertThat(c.getReason()).isEqualTo("TargetProblem"));

            // the budget is put back: 2 per pod again, what the running pods hold
            long back = System.nanoTime();
            atEight.close();
            atTwelve = ConnectionSampler.start(Set.of(RealApps.appName(ns, "kc")));
            long raised = applyPolicy(POLICY.formatted(12)).getMetadata().getGeneration();
            var settled = awaitPolicy("kc-db", targetState("kc", "Applied", 2).and(p -> p.getStatus().getConditions()
                    .stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()))), 120);
            double seconds = (System.nanoTime() - back) / 1e9;
            awaitRolledOut("kc", 120);
            atTwelve.close();
            System.out.printf("StalledRaiseE2E: settled at pool %d %.1f s after the budget was put back (window %s); "
                    + "target states %s; %s; %s%n", target(settled, "kc").getPoolSize(), seconds, WINDOW, states.seen(),
                    atEight.report("budget 8, stalled", 8), atTwelve.report("budget 12, back", 12));
            atEight.assertWithin("budget 12 -> 8: the rollout to 1 stalls", 8);
            atTwelve.assertWithin("budget 8 -> 12: back to 2", 12);
            var seen = states.seen();
            // from the first stall until the budget was put back, every status said Stalled (never Rolling, never
            // Ready); after it, the write of 2 (announced as Rolling at 1 just before it goes out), never Pending
            assertThat(states.fromFirstStallUntil(raised)).as("the statuses during the stall, of %s", seen).isNotEmpty()
                    .allSatisfy(s -> assertThat(s).startsWith("Stalled@1/TargetProblem"));
            assertThat(seen).as("never held as a pending raise").noneMatch(s -> s.startsWith("Pending"));
        } finally {
            atEight.close();
            if (atTwelve != null) {
                atTwelve.close();
            }
        }
        // no manual step: nothing but the policy changed, and every pod runs the size the status shows
        assertThat(livePods("kc")).hasSize(3)
                .allSatisfy(p -> assertThat(env(p.getSpec().getContainers().get(0).getEnv(),
                        "SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE")).isEqualTo("2"));
    }
}
