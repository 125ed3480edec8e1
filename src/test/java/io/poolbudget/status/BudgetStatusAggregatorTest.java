package io.poolbudget.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.planning.SharedBudgets;
import io.poolbudget.api.v1alpha1.DatabaseBudgetStatus;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BudgetStatusAggregatorTest {

    private static PoolPolicy policy(String namespace, Long allocated, Long live) {
        var p = Serialization.unmarshal("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db, namespace: %s}
                spec: {databaseRef: {name: pg}, injection: {preset: hikari-env}, targets: [{name: web}]}
                """.formatted(namespace), PoolPolicy.class);
        if (allocated != null) {
            var st = new PoolPolicyStatus();
            st.setAllocated(allocated);
            st.setLiveConnections(live);
            p.setStatus(st);
        }
        return p;
    }

    private static final DatabaseBudget BUDGET = Serialization.unmarshal("""
            apiVersion: poolbudget.io/v1alpha1
            kind: DatabaseBudget
            metadata: {name: pg, generation: 3}
            spec: {database: {cores: 10}, namespaceSelector: {matchLabels: {db: pg}}}
            """, DatabaseBudget.class);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-23T10:00:00Z"), ZoneOffset.UTC);

    private static SharedBudgets shared(List<PoolPolicy> policies, List<SharedBudgets.Holding> holdings) {
        return new SharedBudgets(List.of(BUDGET), List.of(
                new NamespaceBuilder().withNewMetadata().withName("a").withLabels(Map.of("db", "pg")).endMetadata()
                        .build(),
                new NamespaceBuilder().withNewMetadata().withName("b").withLabels(Map.of("db", "pg")).endMetadata()
                        .build(),
                new NamespaceBuilder().withNewMetadata().withName("c").endMetadata().build()), policies, holdings);
    }

    @Test
    void theBudgetEachPolicysShareAndUseAndTheRefusedOnes() {
        var a = policy("a", 10L, 10L);
        var b = policy("b", 10L, 10L);
        var c = policy("c", null, null); // not admitted, and its pods hold nothing
        var status = BudgetStatusAggregator.status(shared(List.of(a, b, c), List.of()), BUDGET, null, CLOCK);
        assertThat(status.getBudget().getConnections()).isEqualTo(20L);
        assertThat(status.getPolicyCount()).isEqualTo(2);
        assertThat(status.getPolicies()).extracting(r -> r.getNamespace() + " " + r.getShare() + " " + r.getAllocated()
                + " " + r.getLive() + " " + r.getRefused())
                .containsExactly("a 10 10 10 null", "b 10 10 10 null", "c null null null namespace c is not selected");
        assertThat(status.getAllocated()).isEqualTo(20L);
        assertThat(status.getLiveConnections()).isEqualTo(20L);
        assertThat(status.getHeldOutside()).isZero();
        assertThat(status.getObservedGeneration()).isEqualTo(3L);
        assertThat(status.getConditions())
                .extracting(c1 -> c1.getType() + " " + c1.getStatus() + " " + c1.getReason() + ": "
                        + c1.getMessage())
                .containsExactly("Ready True Shared: 2 policies draw on 20 connections");
    }

    /** Issue 53: a sum with a term that is any number is none. */
    @Test
    void aPolicyWhosePodsMayOpenAnyNumberMakesTheSumAnyNumber() {
        var a = policy("a", 10L, 10L);
        var b = policy("b", 10L, null);
        b.getStatus().setLiveConnectionsUnbounded(true);
        var status = BudgetStatusAggregator.status(shared(List.of(a, b), List.of()), BUDGET, null, CLOCK);
        assertThat(status.getLiveConnections()).isNull();
        assertThat(status.getLiveConnectionsUnbounded()).isTrue();
        assertThat(status.getPolicies()).extracting(r -> r.getNamespace() + " " + r.getLive() + " "
                + r.getLiveUnbounded()).containsExactly("a 10 null", "b null true");
    }

    @Test
    void podsOutsideTheAdmittedPoliciesAreListedAndSaidInTheCondition() {
        var a = policy("a", 10L, 10L);
        var c = policy("c", null, null);
        var holdings = List.of(new SharedBudgets.Holding("pg", "c", "db", 5, false),
                new SharedBudgets.Holding("pg", "c", "db", 5, true));
        var status = BudgetStatusAggregator.status(shared(List.of(a, c), holdings), BUDGET, null, CLOCK);
        assertThat(status.getHeldOutside()).isEqualTo(10L);
        assertThat(status.getOutside()).extracting(o -> o.getNamespace() + "/" + o.getPolicy() + " " + o.getPods() + " "
                + o.getTerminating() + " " + o.getConnections() + " " + o.getReason())
                .containsExactly("c/db 2 1 10 namespace c is not selected");
        assertThat(status.getPolicies()).filteredOn(r -> r.getNamespace().equals("a")).singleElement()
                .extracting(DatabaseBudgetStatus.PolicyShare::getShare).isEqualTo(10L);
        assertThat(status.getConditions()).singleElement().satisfies(c1 -> {
            assertThat(c1.getReason()).isEqualTo("HeldOutside");
            assertThat(c1.getMessage()).isEqualTo("1 policies draw on 20 connections; 10 of them are held by pods "
                    + "outside its admitted policies (status.outside), so those policies split 10");
        });
    }

    @Test
    void anInvalidBudgetIsNotReadyAndNamesTheField() {
        var bad = Serialization.unmarshal("""
                apiVersion: poolbudget.io/v1alpha1
                kind: DatabaseBudget
                metadata: {name: pg}
                spec: {database: {cores: 10, maxConnections: 5, reservedConnections: 5}, namespaceSelector: {}}
                """, DatabaseBudget.class);
        var status = BudgetStatusAggregator.status(shared(List.of(), List.of()), bad, null, CLOCK);
        assertThat(status.getBudget()).isNull();
        assertThat(status.getConditions()).singleElement().satisfies(c1 -> {
            assertThat(c1.getStatus()).isEqualTo("False");
            assertThat(c1.getReason()).isEqualTo("InvalidSpec");
            assertThat(c1.getMessage()).startsWith("DatabaseBudget pg spec.database");
        });
    }

    @Test
    void anUnchangedBudgetGivesTheSameStatusSoNothingIsWrittenAgain() {
        var a = policy("a", 10L, 10L);
        var first = BudgetStatusAggregator.status(shared(List.of(a), List.of()), BUDGET, null, CLOCK);
        var later = BudgetStatusAggregator.status(shared(List.of(a), List.of()), BUDGET, first.getConditions(),
                Clock.offset(CLOCK, java.time.Duration.ofHours(1)));
        assertThat(later).usingRecursiveComparison().isEqualTo(first);
    }
}
