package io.poolbudget.planning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.poolbudget.api.v1alpha1.BudgetStatus;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SharedBudgetsTest {
    private static final DatabaseBudget PG = Serialization.unmarshal("""
            apiVersion: poolbudget.io/v1alpha1
            kind: DatabaseBudget
            metadata: {name: pg}
            spec:
              database: {cores: 9}
              namespaceSelector: {matchLabels: {db: pg}}
              defaultWeight: 1
              namespaces: [{name: a, weight: 2}]
            """, DatabaseBudget.class);

    private static Namespace ns(String name, boolean admitted) {
        return new NamespaceBuilder().withNewMetadata().withName(name)
                .withLabels(admitted ? Map.of("db", "pg") : Map.of()).endMetadata().build();
    }

    private static PoolPolicy policy(String namespace, String name, Long planned) {
        var p = Serialization.unmarshal("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: %s, namespace: %s}
                spec:
                  databaseRef: {name: pg}
                  injection: {preset: hikari-env}
                  targets: [{name: web}]
                """.formatted(name, namespace), PoolPolicy.class);
        if (planned != null) {
            var status = new PoolPolicyStatus();
            var budget = new BudgetStatus();
            budget.setConnections(planned);
            status.setBudget(budget);
            status.setLiveConnections(0L);
            p.setStatus(status);
        }
        return p;
    }

    @Test
    void eachAdmittedPolicyPlansWithItsNamespacesShareAndARefusedOneTakesNone() {
        var a = policy("a", "orders", null);
        var b = policy("b", "billing", null);
        var c = policy("c", "intruder", null);
        var shared = new SharedBudgets(List.of(PG), List.of(ns("a", true), ns("b", true), ns("c", false)), List.of(a, b, c));
        // 9 × 2 = 18; a weight 2, b weight 1 (the default): 12 and 6; c is not selected
        assertThat(shared.shareOf(a).connections()).isEqualTo(12);
        assertThat(shared.shareOf(b).connections()).isEqualTo(6);
        assertThat(shared.shareOf(b).explanation()).isEqualTo("DatabaseBudget pg: share 6 of 18: namespace b weight 1 "
                + "of 3 (2 namespaces) → 6; where budget 18 = cores 9 × 2 per core + 0 effective spindles = 18; "
                + "no maxConnections cap");
        assertThatThrownBy(() -> shared.shareOf(c)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("spec.databaseRef DatabaseBudget pg does not admit namespace c (its namespaceSelector is "
                        + "db=pg): ask its owner to select this namespace, or give this policy its own spec.database");
    }

    @Test
    void aMissingBudgetIsNamed() {
        var a = policy("a", "orders", null);
        assertThatThrownBy(() -> new SharedBudgets(List.of(), List.of(ns("a", true)), List.of(a)).shareOf(a))
                .hasMessageStartingWith("spec.databaseRef names DatabaseBudget pg, which does not exist");
    }

    @Test
    void aRaiseWaitsForAnotherNamespaceStillPlanningWithMoreThanItsShareNow() {
        var a = policy("a", "orders", 18L);   // planned alone with all 18; b has just joined
        var b = policy("b", "billing", null);
        var shared = new SharedBudgets(List.of(PG), List.of(ns("a", true), ns("b", true)), List.of(a, b));
        assertThat(shared.blockers(b)).containsExactly(
                "PoolPolicy a/orders (DatabaseBudget pg) still plans with 18, its share is now 12");
        assertThat(shared.blockers(a)).containsExactly("PoolPolicy b/billing (DatabaseBudget pg) has not been planned yet");

        a.getStatus().getBudget().setConnections(12L);
        a.getStatus().setLiveConnections(14L);   // its old pods still hold more
        assertThat(shared.blockers(b)).containsExactly(
                "PoolPolicy a/orders (DatabaseBudget pg) holds 14 connections, more than its share 12");
        a.getStatus().setLiveConnections(12L);
        assertThat(shared.blockers(b)).isEmpty();
    }
}
