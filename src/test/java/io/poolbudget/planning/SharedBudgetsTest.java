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
        var shared = new SharedBudgets(List.of(PG), List.of(ns("a", true), ns("b", true), ns("c", false)),
                List.of(a, b, c), List.of());
        // 9 × 2 = 18; a weight 2, b weight 1 (the default): 12 and 6; c is not selected
        assertThat(shared.shareOf(a).connections()).isEqualTo(12);
        assertThat(shared.shareOf(b).connections()).isEqualTo(6);
        assertThat(shared.shareOf(b).explanation())
                .isEqualTo("this namespace's share of DatabaseBudget pg is 6 of 18: namespace b weight 1 "
                        + "of 3 (2 namespaces) → 6; where budget 18 = cores 9 × 2 per core + 0 effective spindles = 18; "
                        + "no maxConnections cap");
        assertThatThrownBy(() -> shared.shareOf(c)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("spec.databaseRef DatabaseBudget pg does not admit namespace c (its namespaceSelector is "
                        + "db=pg): ask its owner to select this namespace, or give this policy its own spec.database");
    }

    @Test
    void aMissingBudgetIsNamed() {
        var a = policy("a", "orders", null);
        assertThatThrownBy(() -> new SharedBudgets(List.of(), List.of(ns("a", true)), List.of(a), List.of()).shareOf(a))
                .hasMessageStartingWith("spec.databaseRef names DatabaseBudget pg, which does not exist");
    }

    @Test
    void aRaiseWaitsForAnotherNamespaceStillPlanningWithMoreThanItsShareNow() {
        var a = policy("a", "orders", 18L); // planned alone with all 18; b has just joined
        var b = policy("b", "billing", null);
        var shared = new SharedBudgets(List.of(PG), List.of(ns("a", true), ns("b", true)), List.of(a, b), List.of());
        assertThat(shared.blockers(b)).containsExactly(
                "PoolPolicy a/orders (DatabaseBudget pg) still plans with 18, its share is now 12");
        assertThat(shared.blockers(a))
                .containsExactly("PoolPolicy b/billing (DatabaseBudget pg) has not been planned yet");

        a.getStatus().getBudget().setConnections(12L);
        a.getStatus().setLiveConnections(14L); // its old pods still hold more
        assertThat(shared.blockers(b)).containsExactly(
                "PoolPolicy a/orders (DatabaseBudget pg) holds 14 connections, more than its share 12");
        a.getStatus().setLiveConnections(12L);
        assertThat(shared.blockers(b)).isEmpty();
        // issue 53: pods not sized yet without a pool limit: no count in status, and more than any share
        a.getStatus().setLiveConnections(null);
        a.getStatus().setLiveConnectionsUnbounded(true);
        assertThat(shared.blockers(b)).containsExactly("PoolPolicy a/orders (DatabaseBudget pg) has pods not sized "
                + "yet that may open any number of connections (no pool limit), more than its share 12");
    }

    private static SharedBudgets.Holding pod(String namespace, String policy, String budget, long connections,
            boolean terminating) {
        return new SharedBudgets.Holding(budget, namespace, policy, connections, terminating);
    }

    @Test
    void podsOfARefusedNamespaceKeepCountingAndTheAdmittedOnesSplitOnlyTheRest() {
        var a = policy("a", "orders", 12L);
        var b = policy("b", "billing", 6L); // b's namespace has just left the selector
        var holdings = List.of(pod("a", "orders", "pg", 3, false), pod("b", "billing", "pg", 5, false),
                pod("b", "billing", "pg", 5, false));
        var shared = new SharedBudgets(List.of(PG), List.of(ns("a", true), ns("b", false)), List.of(a, b), holdings);
        // 18 − 10 held by b's pods = 8, all of it a's (a's own pods are its share's, not outside)
        assertThat(shared.shareOf(a).connections()).isEqualTo(8);
        assertThat(shared.shareOf(a).explanation()).contains("8 = 18 − 10 held by pods outside its admitted policies "
                + "(b/billing 10, namespace b is not selected)");
        assertThat(shared.outside(PG)).containsExactly(new SharedBudgets.Outside("b", "billing", 2, 0, 10,
                "namespace b is not selected"));
        assertThat(shared.blockers(a)).isEmpty();

        // one of them shutting down: still counted, and a raise waits until it is gone
        var leaving = new SharedBudgets(List.of(PG), List.of(ns("a", true), ns("b", false)), List.of(a, b),
                List.of(pod("b", "billing", "pg", 5, true)));
        assertThat(leaving.shareOf(a).connections()).isEqualTo(13);
        assertThat(leaving.blockers(a))
                .containsExactly("1 pod(s) of PoolPolicy b/billing (namespace b is not selected) "
                        + "still hold connections of DatabaseBudget pg while they shut down");

        // gone: a has the whole budget
        var gone = new SharedBudgets(List.of(PG), List.of(ns("a", true), ns("b", false)), List.of(a, b), List.of());
        assertThat(gone.shareOf(a).connections()).isEqualTo(18);
    }

    @Test
    void podsCountAgainstTheBudgetTheyRecordWhateverBecameOfTheirPolicy() {
        var a = policy("a", "orders", 12L);
        var moved = policy("b", "billing", 6L);
        moved.getSpec().setDatabaseRef(null); // has its own spec.database now
        var holdings = List.of(pod("b", "billing", "pg", 4, false), pod("b", "gone", "pg", 2, false),
                pod("b", "billing", null, 7, false)); // recorded no budget, its policy draws on none now: not pg's
        var shared = new SharedBudgets(List.of(PG), List.of(ns("a", true), ns("b", true)), List.of(a, moved), holdings);
        assertThat(shared.outside(PG)).extracting(o -> o.policy() + " " + o.connections() + " " + o.why())
                .containsExactly(
                        "billing 4 its PoolPolicy has its own spec.database now", "gone 2 its PoolPolicy is gone");
        assertThat(shared.shareOf(a).connections()).isEqualTo(12); // 18 − 6

        // a pod that recorded no budget counts by its policy's reference (sized before pods recorded it)
        var refused = policy("b", "legacy", 6L);
        var old = new SharedBudgets(List.of(PG), List.of(ns("a", true), ns("b", false)), List.of(a, refused),
                List.of(pod("b", "legacy", null, 9, false)));
        assertThat(old.shareOf(a).connections()).isEqualTo(9);
    }

    @Test
    void moreHeldOutsideThanTheBudgetLeavesAShareOfZeroAndSaysSo() {
        var a = policy("a", "orders", 12L);
        var shared = new SharedBudgets(List.of(PG), List.of(ns("a", true), ns("b", false)), List.of(a),
                List.of(pod("b", "gone", "pg", 30, false)));
        var share = shared.shareOf(a);
        assertThat(share.connections()).isZero();
        assertThat(share.explanation()).startsWith("this namespace's share of DatabaseBudget pg is 0 of 0: ")
                .contains("0 = 18 − 30 held by pods outside").endsWith("; ask its owner for a larger weight or budget");
    }

    @Test
    void aSelectorOperatorTheSchemaDoesNotKnowIsNamedNotThrownAsABug() {
        var bogus = Serialization.unmarshal("""
                apiVersion: poolbudget.io/v1alpha1
                kind: DatabaseBudget
                metadata: {name: pg}
                spec:
                  database: {cores: 9}
                  namespaceSelector: {matchExpressions: [{key: team, operator: Bogus, values: [x]}]}
                """, DatabaseBudget.class);
        var a = policy("a", "orders", null);
        assertThatThrownBy(
                () -> new SharedBudgets(List.of(bogus), List.of(ns("a", true)), List.of(a), List.of()).shareOf(a))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessage(
                        "DatabaseBudget pg spec.namespaceSelector matchExpressions[0].operator 'Bogus' is not one of "
                                + "In, NotIn, Exists, DoesNotExist: use one of those");
    }
}
