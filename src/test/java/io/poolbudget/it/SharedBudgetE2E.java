package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two namespaces' real apps on one real PostgreSQL through a DatabaseBudget, sampled at the database every
 * 100 ms while the budget's owner moves weight from one namespace to the other. The shrinking app rolls out
 * slowly (minReadySeconds, and its old pods hold their pools through a preStop delay and a graceful drain);
 * the growing one may raise only after it, so PostgreSQL never counts more than the budget. Raised at once,
 * the growing app's new pools would meet the shrinking app's old ones: 4 × 5 + 4 × 5 = 40 of 36.
 */
@Order(2)
class SharedBudgetE2E extends OperatorTestBase {
    @RegisterExtension
    final SharedBudgetFixture budget = new SharedBudgetFixture(getClass());

    @BeforeAll
    static void start() {
        startOperator("shared-e2e", "0s");
    }

    private void applyBudget(String nsA, int weightA, String nsB, int weightB) {
        // 17 × 2 + 2 = 36 connections for both namespaces together
        budget.apply("{name: e2e-postgres, cores: 17, effectiveSpindles: 2}", nsA, weightA, nsB, weightB);
    }

    /**
     * The app runs before its policy comes, as it would in a cluster: a policy written into a Deployment whose first
     * pods are still starting makes the controller delete them all at once (unavailable pods go first), and the
     * operator rightly plans for that many terminating pods from then on.
     */
    private void startApp(String app, int minReadySeconds) {
        budget.admit(ns);
        var deployment = RealApps.app(ns, app, 4, Map.of(), 3);
        deployment.getSpec().setMinReadySeconds(minReadySeconds);
        create(deployment);
        awaitRolledOut(app, 240);
        applyPolicy(budget.policy("spring-boot-hikari", app));
    }

    /**
     * Settled at the size the sizing rules give (docs/concepts.md) for what happened: the policy's share over the peak pods its status
     * shows (4 replicas + 1 surge + the old pods seen terminating at once, at least 1), at least 1, once the policy
     * plans with {@code share}. {@code planned}
     * is the size when no more than one old pod terminated at a time; another is printed, not failed. Four real pods
     * roll one by one (10 s or more a step on 2 cores): minutes, not the usual 90 s.
     */
    private int awaitSized(String app, long share, int planned) {
        var p = awaitPolicy("db", q -> {
            var t = target(q, app);
            return t != null && q.getStatus().getBudget() != null && q.getStatus().getBudget().getConnections() == share
                    && "Applied".equals(t.getState()) && t.getPoolSize() != null
                    && t.getPoolSize().equals(t.getAppliedPoolSize()) && t.getPeakPods() != null
                    && t.getPoolSize() == Math.max(1, q.getStatus().getBudget().getConnections() / t.getPeakPods());
        }, 240);
        awaitRolledOut(app, 240);
        awaitOldPodsGone(app, 120);
        var t = target(p, app);
        assertThat(t.getPeakPods()).as("4 replicas + 1 surge + at least 1 terminating").isGreaterThanOrEqualTo(6);
        if (t.getPoolSize() != planned) {
            System.out.printf("SharedBudgetE2E: %s/%s sized %d, not %d: %s%n", ns, app, t.getPoolSize(), planned,
                    t.getExplanation());
        }
        return t.getPoolSize();
    }

    @Test
    void twoNamespacesTradeSharesAndPostgresNeverCountsMoreThanTheBudget() {
        String nsA = ns;
        String nsB = otherNamespace();
        // 4 replicas + 1 surge + 1 terminating = 6 peak pods each. Weights 5:1 -> 30 and 6 -> a 5, b 1.
        applyBudget(nsA, 5, nsB, 1);
        startApp("a", 5);
        in(nsB, () -> startApp("b", 0));
        int a = awaitSized("a", 30, 5);
        int b = from(nsB, () -> awaitSized("b", 6, 1));
        var apps = Set.of(RealApps.appName(nsA, "a"), RealApps.appName(nsB, "b"));
        try (var settle = ConnectionSampler.start(apps)) {
            Awaitility.await("PostgreSQL counting 4 × " + a + " + 4 × " + b).atMost(90, TimeUnit.SECONDS)
                    .pollInterval(200, TimeUnit.MILLISECONDS).until(() -> settle.now() == 4 * a + 4 * b);
        }

        try (var sampler = ConnectionSampler.start(apps)) {
            applyBudget(nsA, 1, nsB, 5); // -> 6 and 30: a shrinks to 1 first, then b grows to 5
            int aAfter = awaitSized("a", 6, 1);
            int bAfter = from(nsB, () -> awaitSized("b", 30, 5));
            Awaitility.await("PostgreSQL counting 4 × " + aAfter + " + 4 × " + bAfter).atMost(90, TimeUnit.SECONDS)
                    .pollInterval(200, TimeUnit.MILLISECONDS).until(() -> sampler.now() == 4 * aAfter + 4 * bAfter);
            sampler.assertWithin("two namespaces trade a shared budget", 36);
            assertThat(sampler.peak()).as("the transition was sampled").isGreaterThanOrEqualTo(4 * aAfter + 4 * bAfter);
        }
    }
}
