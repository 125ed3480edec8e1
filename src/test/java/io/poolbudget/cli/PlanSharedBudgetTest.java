package io.poolbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.cli.PlanCommandTest.Run;
import org.junit.jupiter.api.Test;

/** plan with a DatabaseBudget: the same shares, refusals and messages as the operator. */
class PlanSharedBudgetTest {
    private static final String BUDGET = """
            apiVersion: poolbudget.io/v1alpha1
            kind: DatabaseBudget
            metadata: {name: shared-pg}
            spec:
              database: {cores: 9}
              namespaceSelector: {matchLabels: {db: shared}}
              namespaces: [{name: team-a, weight: 2}]
            """;
    private static final String POLICIES_AND_APPS = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: orders, namespace: team-a}
            spec: {databaseRef: {name: shared-pg}, injection: {preset: hikari-env}, targets: [{name: api}]}
            ---
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: billing, namespace: team-b}
            spec: {databaseRef: {name: shared-pg}, injection: {preset: hikari-env}, targets: [{name: api}]}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: api, namespace: team-a}
            spec: {replicas: 2}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: api, namespace: team-b}
            spec: {replicas: 2}
            """;

    private static Run plan(String stdin) {
        return PlanCommandTest.plan(stdin, "-f", "-");
    }

    private static String namespace(String name, boolean selected) {
        return "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: " + name
                + (selected ? ", labels: {db: shared}" : "")
                + "}\n";
    }

    @Test
    void policiesOfTwoNamespacesSplitTheBudgetByTheNamespacesWeights() {
        Run run = plan(BUDGET + "---\n" + POLICIES_AND_APPS + namespace("team-a", true) + namespace("team-b", true));
        assertThat(run.exit()).as(run.err()).isZero();
        // 9 × 2 = 18: team-a weight 2 -> 12, team-b weight 1 (the default) -> 6
        assertThat(run.out())
                .contains("this namespace's share of DatabaseBudget shared-pg is 12 of 18: namespace team-a "
                        + "weight 2 of 3")
                .contains("this namespace's share of DatabaseBudget shared-pg is 6 of 18: namespace team-b "
                        + "weight 1 of 3");
        assertThat(run.err()).doesNotContain("note:");
    }

    @Test
    void withoutNamespaceManifestsEveryNamespaceIsTakenAsSelectedAndPlanSaysSo() {
        Run run = plan(BUDGET + "---\n" + POLICIES_AND_APPS);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).contains("plan: note: no Namespace in the input: every namespace is taken as selected");
    }

    @Test
    void aNamespaceTheSelectorRefusesIsBadInputNamingTheFieldAndTheFix() {
        Run run = plan(BUDGET + "---\n" + POLICIES_AND_APPS + namespace("team-a", true) + namespace("team-b", false));
        assertThat(run.exit()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(run.err()).contains("(PoolPolicy billing): spec.databaseRef DatabaseBudget shared-pg does not admit "
                + "namespace team-b (its namespaceSelector is db=shared)").doesNotContain("Exception");
    }

    @Test
    void aMissingBudgetAndBothDatabaseSectionsAreRefused() {
        Run missing = plan(POLICIES_AND_APPS);
        assertThat(missing.exit()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(missing.err()).contains("spec.databaseRef names DatabaseBudget shared-pg, which does not exist");
        Run both = plan(BUDGET + "---\n" + POLICIES_AND_APPS.replace("{databaseRef: {name: shared-pg},",
                "{database: {cores: 2}, databaseRef: {name: shared-pg},"));
        assertThat(both.exit()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(both.err()).contains("spec must set exactly one of spec.database");
    }

    @Test
    void aShareOfZeroSaysWhoseShareItIsAndPrintsNoInfiniteRatio() {
        String lopsided = BUDGET.replace("{cores: 9}", "{cores: 5, budget: 10}")
                .replace("[{name: team-a, weight: 2}]", "[{name: team-a, weight: 1000000}]");
        Run run = plan(lopsided + "---\n" + POLICIES_AND_APPS + namespace("team-a", true) + namespace("team-b", true));
        assertThat(run.exit()).as(run.err()).isEqualTo(PlanCommand.OVERSUBSCRIBED);
        assertThat(run.out()).contains("PoolPolicy team-b/billing: OVERSUBSCRIBED, the minimums alone need")
                .contains("this namespace's share of DatabaseBudget shared-pg is 0 of 10")
                .contains("ask its owner for a larger weight or budget").doesNotContain("Infinity");
    }

    @Test
    void aSelectorOperatorTheApiServerWouldRefuseIsBadInputNamingTheField() {
        Run run = plan(BUDGET.replace("{matchLabels: {db: shared}}", "{matchExpressions: [{key: db, operator: Bogus, "
                + "values: [shared]}]}") + "---\n" + POLICIES_AND_APPS + namespace("team-a", true)
                + namespace("team-b", true));
        assertThat(run.exit()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(run.err()).contains("DatabaseBudget shared-pg spec.namespaceSelector matchExpressions[0].operator "
                + "'Bogus' is not one of In, NotIn, Exists, DoesNotExist").doesNotContain("Exception");
    }
}
