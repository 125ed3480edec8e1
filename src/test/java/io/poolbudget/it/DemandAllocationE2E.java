package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.it.PublicApps.App;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 55 with applications we did not write (third_party/): Spring's petclinic (HikariCP) and Quarkus'
 * hibernate-orm-panache quickstart ("fruits", Agroal), one replica each, the two targets of one policy with allocation
 * mode Demand and resize Live, on a budget of 12: a nominal pool of 6 each. The load moves: many callers on petclinic's
 * page while fruits is idle, then the same on fruits' while petclinic is idle. Each time the busy app's pool grows above
 * its nominal size and the idle one's falls below it, in the running pods (their agents say so), shrink-first. Then mode
 * Recommend under the same load: the status recommends other sizes and an Event says so, and nothing is written: the
 * pods go back to the nominal sizes and stay there. Throughout, PostgreSQL's count (every 100 ms) never exceeds the
 * budget, no container restarts, and no request fails but those the app's own pool timed out.
 *
 * <p>One policy sizes both apps, with one preset (spring-boot-hikari): the quickstart reads its pool size from that
 * preset's variables by Quarkus' documented property expressions ({@code QUARKUS_DATASOURCE_JDBC_MAX_SIZE=
 * ${SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE:10}}), and its agent resizes its Agroal pool live. Agroal counts connections
 * in use only with the datasource's metrics on, a build-time property of Quarkus (set on the pod as
 * QUARKUS_DATASOURCE_JDBC_ENABLE_METRICS it is ignored, and the agent reports no demand): the image is built with
 * {@code quarkus.datasource.jdbc.metrics.enabled=true} (hack/images/public-apps-image.sh). Petclinic turns Spring Boot's
 * open-session-in-view off in its application.properties, so its requests hold a connection for a few queries only
 * and its pool of 6 never queues (measured: demand 3 to 4 at 4 to 32 callers, about 90 requests/s, its CPU the limit);
 * here it runs with Spring Boot's default, SPRING_JPA_OPEN_IN_VIEW=true, as most Spring Boot apps do: a request holds
 * its connection until its page is rendered, so callers queue at its pool.
 */
@Order(13)
class DemandAllocationE2E extends OperatorTestBase {
    private static final int BUDGET = 12;
    /** Callers on the busy app at once, each a request at a time: more than its nominal pool, so some wait for one. */
    private static final int CALLERS = 48;
    private static final int PERIOD_SECONDS = 10;
    private static final Map<String, String> ENV = Map.of("POOLBUDGET_AGENT_IMAGE",
            "poolbudget/operator:0.1.0-SNAPSHOT");
    private static final String POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: demand}
            spec:
              database: {cores: 1, budget: %d}
              injection: {preset: spring-boot-hikari, resize: Live, liveDeadlineSeconds: 90}
              allocation: {mode: %s, periodSeconds: %d}
              targets: [{name: petclinic}, {name: fruits}]
            """;
    /** The quickstart as one policy with the spring-boot-hikari preset sizes it. */
    private static final List<EnvVar> FRUITS_ENV = List.of(
            new EnvVar("QUARKUS_DATASOURCE_JDBC_MAX_SIZE", "${SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE:10}", null),
            new EnvVar("QUARKUS_DATASOURCE_JDBC_MIN_SIZE", "${SPRING_DATASOURCE_HIKARI_MINIMUMIDLE:0}", null));
    /** Petclinic with Spring Boot's default open-session-in-view, which its application.properties turns off. */
    private static final List<EnvVar> PETCLINIC_ENV = List.of(new EnvVar("SPRING_JPA_OPEN_IN_VIEW", "true", null));
    private static final String LIVE_SIZE = "live-size.poolbudget.io/demand";

    private final PublicApps publicApps = new PublicApps(this);

    @BeforeAll
    static void start() {
        startOperatorAsShipped("demand-allocation-e2e", "5s", ENV);
    }

    @Test
    void theBudgetFollowsTheLoadBetweenPetclinicAndAQuarkusAppAndRecommendWritesNothing() throws Exception {
        var petclinic = App.petclinic(ns, "demand");
        var fruits = App.fruits(ns, "demand");
        List<App> apps = List.of(petclinic, fruits);
        create(PublicApps.deployment(petclinic, PETCLINIC_ENV));
        create(PublicApps.deployment(fruits, FRUITS_ENV));
        apps.forEach(app -> awaitRolledOut(app.name(), 240));
        applyPolicy(POLICY.formatted(BUDGET, "Demand", PERIOD_SECONDS)); // adds the agent: one rollout
        Map<App, Integer> idle = publicApps.awaitSettled(apps, 1, 360, s -> true);
        Map<App, Integer> nominal = nominal(apps);
        assertThat(nominal).as("the nominal pools: 12 by weights 1:1 over one pod each")
                .containsExactlyInAnyOrderEntriesOf(Map.of(petclinic, BUDGET / 2, fruits, BUDGET / 2));
        Map<App, Set<String>> uids = publicApps.uids(apps);

        var resizes = new Resizes();
        try (var load = new PublicAppLoad();
                var sampler = ConnectionSampler.start(apps.stream().map(App::appName).collect(Collectors.toSet()));
                var watch = client.resources(PoolPolicy.class).inNamespace(ns).withName("demand").watch(resizes)) {
            List<String> phases = new ArrayList<>();
            phases.add("idle " + figures(apps, idle));

            // phase 1: petclinic busy, fruits idle
            load.start(petclinic, publicApps.addresses(petclinic), CALLERS);
            long moved = System.nanoTime();
            Map<App, Integer> one = publicApps.awaitSettled(apps, 1, 300, s -> s.get(petclinic) > nominal.get(
                    petclinic) && s.get(fruits) < nominal.get(fruits));
            phases.add(String.format("petclinic busy (%.0f s) %s", (System.nanoTime() - moved) / 1e9,
                    figures(apps, one)));
            assertBusy(petclinic, nominal);
            awaitAgentsAt(apps);

            // phase 2: the load moves to fruits
            load.stop(petclinic);
            load.start(fruits, publicApps.addresses(fruits), CALLERS);
            moved = System.nanoTime();
            Map<App, Integer> two = publicApps.awaitSettled(apps, 1, 300, s -> s.get(fruits) > nominal.get(fruits)
                    && s.get(petclinic) < nominal.get(petclinic));
            phases.add(String.format("fruits busy (%.0f s) %s", (System.nanoTime() - moved) / 1e9,
                    figures(apps, two)));
            assertBusy(fruits, nominal);
            awaitAgentsAt(apps);

            // phase 3: Recommend, fruits still busy: back to the nominal sizes, then nothing written
            applyPolicy(POLICY.formatted(BUDGET, "Recommend", PERIOD_SECONDS));
            Map<App, Integer> three = publicApps.awaitSettled(apps, 1, 300, nominal::equals);
            awaitAgentsAt(apps);
            Map<String, String> before = written(apps);
            var recommended = Awaitility.await("a recommendation other than the applied size, and its Event")
                    .atMost(120, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS).until(() -> publicApps.status(
                            fruits),
                            t -> t.getRecommendedPoolSize() != null && t.getRecommendedPoolSize() > t
                                    .getAppliedPoolSize() && !recommendedEvents().isEmpty());
            Awaitility.await("nothing written for " + 3 * PERIOD_SECONDS + " s").during(Duration.ofSeconds(3L
                    * PERIOD_SECONDS)).atMost(Duration.ofSeconds(3L * PERIOD_SECONDS + 15)).pollInterval(1,
                            TimeUnit.SECONDS)
                    .until(() -> written(apps).equals(before));
            phases.add("Recommend, fruits busy " + figures(apps, three) + ", fruits recommended "
                    + recommended.getRecommendedPoolSize() + " (" + recommended.getAllocation() + "), Events "
                    + recommendedEvents());
            assertThat(written(apps)).as("what the operator wrote, before and after the recommendation")
                    .isEqualTo(before);

            apps.forEach(app -> assertThat(load.counts(app).served.get()).as(app.name() + "'s requests served")
                    .isPositive());
            load.close();
            System.out.printf("DemandAllocationE2E:%n  %s%n  resizes %s%n  requests petclinic %s; fruits %s%n  pool "
                    + "time-outs the apps logged: petclinic %d, fruits %d%n  at PostgreSQL: peak %d of %d%n",
                    String.join("\n  ", phases), resizes.seen(), load.counts(petclinic), load.counts(fruits),
                    publicApps.poolTimeOuts(petclinic), publicApps.poolTimeOuts(fruits), sampler.peak(), BUDGET);
            sampler.assertWithin("the budget follows the load: petclinic, then fruits, then Recommend", BUDGET);
            for (App app : apps) {
                var counts = load.counts(app);
                assertThat(counts.unanswered.get()).as(app.name() + "'s requests unanswered: %s", counts).isZero();
                assertThat(counts.answeredWithError.get()).as(app.name() + "'s failed requests beyond the time-outs "
                        + "its own pool logged: %s", counts).isLessThanOrEqualTo(publicApps.poolTimeOuts(app));
            }
        }
        assertThat(publicApps.uids(apps)).as("every size was taken live: the same pods").isEqualTo(uids);
        for (App app : apps) {
            assertThat(publicApps.restarts(app)).as(app.name() + "'s container restarts").isZero();
        }
        assertThat(operatorLog()).doesNotContain("Exception");
    }

    private Map<App, Integer> nominal(List<App> apps) {
        Map<App, Integer> nominal = new java.util.HashMap<>();
        apps.forEach(app -> nominal.put(app, publicApps.status(app).getNominalPoolSize()));
        return nominal;
    }

    /** The busy app's demand, as its target's status reports it, above its nominal pool: its callers queued. */
    private void assertBusy(App busy, Map<App, Integer> nominal) {
        var t = publicApps.status(busy);
        assertThat(t.getDemand()).as(busy.name() + "'s demand per pod (%s, %s)", t.getDemandSource(),
                t.getAllocation()).isNotNull().isGreaterThan(nominal.get(busy));
    }

    /** Each pod's own pools (HikariCP's, Agroal's), as its agent reports them, at its target's applied size. */
    private void awaitAgentsAt(List<App> apps) {
        Awaitility.await("the apps' own pools at the applied sizes").atMost(60, TimeUnit.SECONDS)
                .pollInterval(1, TimeUnit.SECONDS).untilAsserted(() -> {
                    for (App app : apps) {
                        int size = publicApps.status(app).getAppliedPoolSize();
                        assertThat(publicApps.agents(app).values()).as(app.name() + "'s agents").isNotEmpty()
                                .allSatisfy(a -> assertThat(a.maxima()).as("its pools' maxima").isNotEmpty()
                                        .containsOnly(size));
                    }
                });
    }

    /** Per app: applied/nominal size, demand per pod and where it came from, and the status' one line on it. */
    private String figures(List<App> apps, Map<App, Integer> sizes) {
        return apps.stream().map(app -> {
            var t = publicApps.status(app);
            return app.name() + " " + sizes.get(app) + "/" + t.getNominalPoolSize() + " demand " + t.getDemand()
                    + " (" + t.getDemandSource() + "; " + t.getAllocation() + ")";
        }).collect(Collectors.joining(", "));
    }

    /**
     * What a write of the operator's would change: each Deployment's spec (generation) and annotations, each pod's
     * live-size annotation, each pod's pools as its agent holds them, and the sizes the status says are applied.
     * Not resourceVersions: under load a pod's readiness, and so its and its Deployment's status, may change without
     * any write of the operator's.
     */
    private Map<String, String> written(List<App> apps) {
        Map<String, String> written = new TreeMap<>();
        for (App app : apps) {
            var d = client.apps().deployments().inNamespace(ns).withName(app.name()).get();
            written.put(app.name() + " generation", String.valueOf(d.getMetadata().getGeneration()));
            written.put(app.name() + " annotations", String.valueOf(new TreeMap<>(d.getMetadata().getAnnotations())));
            publicApps.pods(app).forEach(p -> written.put(p.getMetadata().getName() + " " + LIVE_SIZE,
                    p.getMetadata().getAnnotations().get(LIVE_SIZE)));
            publicApps.agents(app).forEach((pod, a) -> written.put(pod + " pools", a.published() + " " + a.maxima()));
            written.put(app.name() + " applied", String.valueOf(publicApps.status(app).getAppliedPoolSize()));
        }
        return written;
    }

    private List<String> recommendedEvents() {
        return client.v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> "AllocationRecommended".equals(e.getReason()))
                .map(e -> e.getType() + " " + e.getMessage()).toList();
    }

    /** Each target's applied size, each time the operator's status changed it, in order. */
    private static final class Resizes implements Watcher<PoolPolicy> {
        private final Map<String, List<Integer>> seen = new TreeMap<>();

        @Override
        public synchronized void eventReceived(Action action, PoolPolicy p) {
            if (p.getStatus() == null || p.getStatus().getTargets() == null) {
                return;
            }
            p.getStatus().getTargets().forEach(t -> {
                List<Integer> sizes = seen.computeIfAbsent(t.getName(), n -> new ArrayList<>());
                if (t.getAppliedPoolSize() != null && (sizes.isEmpty() || !sizes.get(sizes.size() - 1).equals(t
                        .getAppliedPoolSize()))) {
                    sizes.add(t.getAppliedPoolSize());
                }
            });
        }

        synchronized String seen() {
            return seen.toString();
        }

        @Override
        public void onClose(WatcherException cause) {}
    }
}
