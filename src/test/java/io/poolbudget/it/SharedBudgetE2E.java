package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.api.v1alpha1.DatabaseBudget;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two namespaces' real apps on one real PostgreSQL through a DatabaseBudget, sampled at the database every
 * 100 ms while the budget's owner moves weight from one namespace to the other: the shrinking app rolls out
 * (its old pods hold their pools through a preStop delay and a graceful drain) before the growing one may
 * raise, so PostgreSQL never counts more than the budget.
 */
class SharedBudgetE2E extends OperatorTestBase {
    private final String budget = "e2e-shared-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    static void start() {
        startOperator("shared-e2e", "0s");
    }

    @AfterEach
    void deleteBudget() {
        client.resources(DatabaseBudget.class).withName(budget).delete();
    }

    private void applyBudget(String nsA, int weightA, String nsB, int weightB) {
        // 11 × 2 + 2 = 24 connections for both namespaces together
        String yaml = """
                apiVersion: poolbudget.io/v1alpha1
                kind: DatabaseBudget
                metadata: {name: %s}
                spec:
                  database: {name: e2e-postgres, cores: 11, effectiveSpindles: 2}
                  namespaceSelector: {matchLabels: {poolbudget.io/e2e-shared: %s}}
                  namespaces: [{name: %s, weight: %d}, {name: %s, weight: %d}]
                """.formatted(budget, budget, nsA, weightA, nsB, weightB);
        client.resource(client.resources(DatabaseBudget.class)
                .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).item()).serverSideApply();
    }

    private void startApp(String app) {
        client.namespaces().withName(ns).edit(n -> {
            n.getMetadata().getLabels().put("poolbudget.io/e2e-shared", budget);
            return n;
        });
        create(RealApps.app(ns, app, 2, Map.of(), 3));
        applyPolicy("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db}
                spec:
                  databaseRef: {name: %s}
                  injection: {preset: spring-boot-hikari}
                  targets: [{name: %s}]
                """.formatted(budget, app));
    }

    private void awaitSized(String app, int size) {
        awaitPolicy("db", targetState(app, "Applied", size));
        awaitRolledOut(app);
    }

    @Test
    void twoNamespacesTradeSharesAndPostgresNeverCountsMoreThanTheBudget() {
        String nsA = ns;
        String nsB = otherNamespace();
        // 2 replicas + 1 surge + 1 terminating = 4 peak pods each. Weights 2:1 -> 16 and 8 -> a 4, b 2.
        applyBudget(nsA, 2, nsB, 1);
        startApp("a");
        in(nsB, () -> startApp("b"));
        awaitSized("a", 4);
        in(nsB, () -> awaitSized("b", 2));
        var apps = Set.of(RealApps.appName(nsA, "a"), RealApps.appName(nsB, "b"));
        try (var settle = ConnectionSampler.start(apps)) {
            Awaitility.await("PostgreSQL counting 2 × 4 + 2 × 2").atMost(60, TimeUnit.SECONDS)
                    .pollInterval(200, TimeUnit.MILLISECONDS).until(() -> settle.now() == 12);
        }

        try (var sampler = ConnectionSampler.start(apps)) {
            applyBudget(nsA, 1, nsB, 2);   // -> 8 and 16: a shrinks to 2 first, then b grows to 4
            awaitSized("a", 2);
            in(nsB, () -> awaitSized("b", 4));
            Awaitility.await("PostgreSQL counting 2 × 2 + 2 × 4").atMost(60, TimeUnit.SECONDS)
                    .pollInterval(200, TimeUnit.MILLISECONDS).until(() -> sampler.now() == 12);
            sampler.assertWithin("two namespaces trade a shared budget", 24);
            assertThat(sampler.peak()).as("the transition was sampled").isGreaterThanOrEqualTo(12);
        }
    }
}
