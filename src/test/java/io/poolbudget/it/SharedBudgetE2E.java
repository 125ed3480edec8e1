package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two namespaces' real apps on one real PostgreSQL through a DatabaseBudget, sampled at the database every
 * 100 ms while the budget's owner moves weight from one namespace to the other. The shrinking app rolls out
 * slowly (minReadySeconds, and its old pods hold their pools through a preStop delay and a graceful drain);
 * the growing one may raise only after it, so PostgreSQL never counts more than the budget. Raised at once,
 * the growing app's new pools would meet the shrinking app's old ones: 4 × 5 + 4 × 5 = 40 of 36.
 */
class SharedBudgetE2E extends OperatorTestBase {
    @RegisterExtension
    final SharedBudgetFixture budget = new SharedBudgetFixture();

    @BeforeAll
    static void start() {
        startOperator("shared-e2e", "0s");
    }

    private void applyBudget(String nsA, int weightA, String nsB, int weightB) {
        // 17 × 2 + 2 = 36 connections for both namespaces together
        budget.apply("{name: e2e-postgres, cores: 17, effectiveSpindles: 2}", nsA, weightA, nsB, weightB);
    }

    private void startApp(String app, int minReadySeconds) {
        budget.admit(ns);
        var deployment = RealApps.app(ns, app, 4, Map.of(), 3);
        deployment.getSpec().setMinReadySeconds(minReadySeconds);
        create(deployment);
        applyPolicy(budget.policy("spring-boot-hikari", app));
    }

    /** Four real pods roll one by one (10 s or more a step on 2 cores): minutes, not the usual 90 s. */
    private void awaitSized(String app, int size) {
        awaitPolicy("db", targetState(app, "Applied", size), 240);
        awaitRolledOut(app, 240);
    }

    @Test
    void twoNamespacesTradeSharesAndPostgresNeverCountsMoreThanTheBudget() {
        String nsA = ns;
        String nsB = otherNamespace();
        // 4 replicas + 1 surge + 1 terminating = 6 peak pods each. Weights 5:1 -> 30 and 6 -> a 5, b 1.
        applyBudget(nsA, 5, nsB, 1);
        startApp("a", 5);
        in(nsB, () -> startApp("b", 0));
        awaitSized("a", 5);
        in(nsB, () -> awaitSized("b", 1));
        var apps = Set.of(RealApps.appName(nsA, "a"), RealApps.appName(nsB, "b"));
        try (var settle = ConnectionSampler.start(apps)) {
            Awaitility.await("PostgreSQL counting 4 × 5 + 4 × 1").atMost(90, TimeUnit.SECONDS)
                    .pollInterval(200, TimeUnit.MILLISECONDS).until(() -> settle.now() == 24);
        }

        try (var sampler = ConnectionSampler.start(apps)) {
            applyBudget(nsA, 1, nsB, 5);   // -> 6 and 30: a shrinks to 1 first, then b grows to 5
            awaitSized("a", 1);
            in(nsB, () -> awaitSized("b", 5));
            Awaitility.await("PostgreSQL counting 4 × 1 + 4 × 5").atMost(90, TimeUnit.SECONDS)
                    .pollInterval(200, TimeUnit.MILLISECONDS).until(() -> sampler.now() == 24);
            sampler.assertWithin("two namespaces trade a shared budget", 36);
            assertThat(sampler.peak()).as("the transition was sampled").isGreaterThanOrEqualTo(24);
        }
    }
}
