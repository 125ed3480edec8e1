package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.Watch;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One database shared by two namespaces through a DatabaseBudget. Its owner moves weight from one
 * namespace to the other; the shrinking namespace rolls slowly (minReadySeconds), so its old pods with
 * large pools linger. Had the growing namespace been raised at the same time, the two together would
 * pass the budget. Every pod event in both namespaces is sampled.
 */
class SharedBudgetIT extends OperatorTestBase {
    // 4 replicas + 1 surge + 1 terminating = 6 peak pods in each namespace; budget 18 cores × 2 = 36.
    // weights 5:1 -> shares 30 and 6 -> a = 5, b = 1; flipped -> a = 1, b = 5.
    static final int BUDGET = 36;
    @RegisterExtension
    final SharedBudgetFixture budget = new SharedBudgetFixture(getClass());

    @BeforeAll
    static void start() {
        startOperator("shared", "0s");
    }

    private void applyBudget(String nsA, int weightA, String nsB, int weightB) {
        budget.apply("{name: shared-pg, cores: 18}", nsA, weightA, nsB, weightB);
    }

    private String policy(String target) {
        return budget.policy("hikari-env", target);
    }

    private void admit(String namespace) {
        budget.admit(namespace);
    }

    @Test
    void twoNamespacesTradeSharesShrinkingFirstAndTogetherStayWithinTheBudget() {
        String nsA = ns;
        String nsB = otherNamespace();
        admit(nsA);
        admit(nsB);
        applyBudget(nsA, 5, nsB, 1);
        var a = deployment("a", 4, Map.of());
        a.getSpec().setMinReadySeconds(2);
        create(a);
        applyPolicy(policy("a"));
        in(nsB, () -> {
            create(deployment("b", 4, Map.of()));
            applyPolicy(policy("b"));
        });
        awaitPolicy("db", targetState("a", "Applied", 5));
        in(nsB, () -> awaitPolicy("db", targetState("b", "Applied", 1)));
        awaitRolledOut("a");
        in(nsB, () -> awaitRolledOut("b"));
        var budgetStatus = awaitPolicy("db", p -> p.getStatus().getBudget() != null).getStatus().getBudget();
        assertThat(budgetStatus.getTerm()).isEqualTo("Share");
        assertThat(budgetStatus.getConnections()).isEqualTo(30L);

        var sampler = new ShrinkFirstIT.Sampler();
        try (Watch wa = client.pods().inNamespace(nsA).watch(sampler);
                Watch wb = client.pods().inNamespace(nsB).watch(sampler)) {
            var pods = new java.util.ArrayList<>(client.pods().inNamespace(nsA).list().getItems());
            pods.addAll(client.pods().inNamespace(nsB).list().getItems());
            sampler.reset(pods);
            applyBudget(nsA, 1, nsB, 5); // the owner moves weight from a's namespace to b's
            awaitPolicy("db", targetState("a", "Applied", 1));
            in(nsB, () -> {
                awaitPolicy("db", targetState("b", "Applied", 5));
                awaitRolledOut("b");
            });
        }
        System.out.printf("SharedBudgetIT: %d pod events sampled in 2 namespaces, peak %d of %d connections%n",
                sampler.events, sampler.peak, BUDGET);
        assertThat(sampler.events).as("pod events sampled").isGreaterThan(10);
        assertThat(sampler.peak).as("most connections both namespaces' live pods could hold at one moment")
                .isLessThanOrEqualTo(BUDGET);
        assertThat(sampler.firstLargeB).as("b's first pod with pool 5 started after a's last pool-5 pod was gone")
                .isGreaterThan(sampler.lastLargeAGone);

        // the DatabaseBudget's status: the budget, each policy's share and what it allocates
        var status = client.resources(DatabaseBudget.class).withName(budget.name).waitUntilCondition(
                b -> b.getStatus() != null
                        && b.getStatus().getPolicies().size() == 2
                        && b.getStatus().getPolicies().stream()
                                .anyMatch(r -> Long.valueOf(30).equals(r.getAllocated())),
                60,
                java.util.concurrent.TimeUnit.SECONDS).getStatus();
        assertThat(status.getBudget().getConnections()).isEqualTo(36L);
        assertThat(status.getPolicyCount()).isEqualTo(2);
        assertThat(status.getPolicies()).extracting(r -> r.getNamespace() + "/" + r.getName() + " " + r.getShare() + " "
                + r.getAllocated()).containsExactlyInAnyOrder(nsA + "/db 6 6", nsB + "/db 30 30");
        assertThat(status.getAllocated()).isEqualTo(36L);
    }

    @Test
    void aNamespaceTheBudgetDoesNotSelectIsRefusedWithAConditionAndTakesNothing() {
        String other = otherNamespace();
        admit(ns);
        applyBudget(ns, 1, other, 1);
        create(deployment("a", 2, Map.of()));
        applyPolicy(policy("a"));
        in(other, () -> {
            create(deployment("b", 2, Map.of()));
            applyPolicy(policy("b"));
            var refused = awaitPolicy("db", p -> p.getStatus().getConditions().stream()
                    .anyMatch(c -> "Ready".equals(c.getType()) && "False".equals(c.getStatus())));
            assertThat(refused.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Ready"))
                    .extracting(Condition::getMessage).singleElement().asString()
                    .contains("spec.databaseRef").contains("does not admit namespace " + other)
                    .contains("poolbudget.io/it-shared=" + budget.name);
            assertThat(templateEnv("b", MAX)).isNull();
        });
        // the refused namespace takes no share: a plans with the whole budget (4 peak pods -> 36 / 4 = 9)
        awaitPolicy("db", targetState("a", "Applied", 9));
    }
}
