package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.it.PublicApps.App;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 44 with applications we did not write, built unmodified from their public sources (third_party/): Spring's
 * petclinic (Spring Boot 4, HikariCP) in one namespace and Quarkus' hibernate-orm-panache quickstart (Quarkus 3,
 * Agroal) in another, on one DatabaseBudget, each policy in resize mode Live, under a steady load of requests. The
 * budget's owner moves weight from petclinic to the quickstart and back: each time one app's running pools shrink and
 * only once they have confirmed do the other's grow. The same pods throughout, never restarted, no request failed, and
 * PostgreSQL, sampled every 100 ms, never above the budget.
 */
@Order(9)
class LivePublicAppsE2E extends OperatorTestBase {
    private static final int BUDGET = 32;
    private static final String DATABASE = "{name: public-apps, cores: 1, budget: " + BUDGET + "}";
    private static final Map<String, String> ENV = Map.of("POOLBUDGET_AGENT_IMAGE",
            "poolbudget/operator:0.1.0-SNAPSHOT");
    private static final String POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: db}
            spec:
              databaseRef: {name: %s}
              injection: {preset: %s, resize: Live, liveDeadlineSeconds: 90}
              targets: [{name: %s}]
            """;

    @RegisterExtension
    final SharedBudgetFixture budget = new SharedBudgetFixture(getClass());
    private final PublicApps publicApps = new PublicApps(this);

    @BeforeAll
    static void start() {
        startOperatorAsShipped("live-public-e2e", "5s", ENV);
    }

    @Test
    void petclinicAndAQuarkusAppTradeABudgetLiveShrinkFirstWithoutARestart() throws Exception {
        var petclinic = App.petclinic(ns, "db");
        var fruits = App.fruits(otherNamespace(), "db");
        List<App> apps = List.of(petclinic, fruits);
        budget.admit(petclinic.ns());
        budget.admit(fruits.ns());
        budget.apply(DATABASE, petclinic.ns(), 3, fruits.ns(), 1);
        // one pod first, then two: each app creates its tables at its first start, which two pods at once would race
        for (App app : apps) {
            in(app.ns(), () -> create(PublicApps.deployment(app, List.of())));
        }
        for (App app : apps) {
            in(app.ns(), () -> {
                awaitRolledOut(app.name(), 240);
                client.apps().deployments().inNamespace(ns).withName(app.name()).scale(2);
            });
        }
        for (App app : apps) {
            // the first write adds the agent: one rollout, as any first size is
            in(app.ns(), () -> applyPolicy(POLICY.formatted(budget.name, app.spring() ? "spring-boot-hikari"
                    : "quarkus-agroal", app.name())));
        }
        // Recreate: no surge, no old pod beside a new one, so the budget is the pods' pools exactly (peak pods 2):
        // 12 x 2 + 4 x 2 = 32. Were the raise not held until the shrink is confirmed, PostgreSQL would count
        // 12 x 2 + 12 x 2 = 48 of 32 for a moment
        Map<App, Integer> first = publicApps.awaitSettled(apps, 2, 360, s -> true);
        Map<App, Set<String>> uids = publicApps.uids(apps);

        try (var load = new PublicAppLoad();
                var sampler = ConnectionSampler.start(apps.stream().map(App::appName).collect(Collectors.toSet()))) {
            // two clients per app, each a request at a time to its pods in turn
            apps.forEach(app -> load.start(app, publicApps.addresses(app), 2));
            long changed = System.nanoTime();
            budget.apply(DATABASE, petclinic.ns(), 1, fruits.ns(), 3); // petclinic shrinks, then fruits grows
            Map<App, Integer> moved = publicApps.awaitSettled(apps, 2, 180, s -> s.get(petclinic) < first.get(
                    petclinic) && s.get(fruits) > first.get(fruits));
            double toFruits = (System.nanoTime() - changed) / 1e9;
            changed = System.nanoTime();
            budget.apply(DATABASE, petclinic.ns(), 3, fruits.ns(), 1); // fruits' Agroal pools shrink, then petclinic's grow
            Map<App, Integer> back = publicApps.awaitSettled(apps, 2, 180, s -> s.get(petclinic) > moved.get(
                    petclinic) && s.get(fruits) < moved.get(fruits));
            double toPetclinic = (System.nanoTime() - changed) / 1e9;
            awaitWithinSizes(sampler, back);
            for (App app : apps) {
                load.stop(app);
            }
            System.out.printf("LivePublicAppsE2E: sizes %s -> %s in %.1f s -> %s in %.1f s; requests petclinic %s, "
                    + "fruits %s; at PostgreSQL %s, peak %d of %d%n", PublicApps.named(first), PublicApps.named(moved),
                    toFruits, PublicApps.named(back), toPetclinic, load.counts(petclinic), load.counts(fruits),
                    sampler.lastByApp(), sampler.peak(), BUDGET);
            sampler.assertWithin("petclinic (HikariCP) and fruits (Agroal) trade a budget live, twice", BUDGET);
            for (App app : apps) {
                assertThat(load.counts(app).served.get()).as(app.name() + "'s requests served while the pools were "
                        + "resized").isPositive();
                assertThat(load.counts(app).failed()).as(app.name() + "'s requests failed while the pools were "
                        + "resized: %s", load.counts(app)).isZero();
            }
        }
        assertThat(publicApps.uids(apps)).as("every pod took its sizes live: the same pods").isEqualTo(uids);
        for (App app : apps) {
            assertThat(publicApps.restarts(app)).as(app.name() + "'s restarts").isZero();
        }
        assertThat(operatorLog()).doesNotContain("Exception");
    }

    /** Each app's connections at PostgreSQL within its size times its pods (a gone backend may linger a sample). */
    private void awaitWithinSizes(ConnectionSampler sampler, Map<App, Integer> sizes) {
        Awaitility.await("each app within its size times its pods at PostgreSQL").atMost(30, TimeUnit.SECONDS)
                .pollInterval(200, TimeUnit.MILLISECONDS).untilAsserted(() -> sizes.forEach((app, size) -> assertThat(
                        sampler.lastByApp().getOrDefault(app.appName(), 0)).as(app.name()).isLessThanOrEqualTo(
                                size * 2)));
    }
}
