package io.poolbudget.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.planning.SharedBudgets;
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

    @Test
    void theBudgetEachPolicysShareAndUseAndTheRefusedOnes() {
        var budget = Serialization.unmarshal("""
                apiVersion: poolbudget.io/v1alpha1
                kind: DatabaseBudget
                metadata: {name: pg}
                spec: {database: {cores: 10}, namespaceSelector: {matchLabels: {db: pg}}}
                """, DatabaseBudget.class);
        var a = policy("a", 8L, 9L);      // its cached status: last pass's
        var b = policy("b", 10L, 10L);
        var c = policy("c", null, null);  // not admitted
        var shared = new SharedBudgets(List.of(budget), List.of(
                new NamespaceBuilder().withNewMetadata().withName("a").withLabels(Map.of("db", "pg")).endMetadata().build(),
                new NamespaceBuilder().withNewMetadata().withName("b").withLabels(Map.of("db", "pg")).endMetadata().build(),
                new NamespaceBuilder().withNewMetadata().withName("c").endMetadata().build()), List.of(a, b, c));
        var thisPass = new PoolPolicyStatus();
        thisPass.setAllocated(10L);
        thisPass.setLiveConnections(10L);

        var status = BudgetStatusAggregator.status(shared, a, thisPass);
        assertThat(status.getBudget().getConnections()).isEqualTo(20L);
        assertThat(status.getPolicyCount()).isEqualTo(2);
        assertThat(status.getPolicies()).extracting(r -> r.getNamespace() + " " + r.getShare() + " " + r.getAllocated()
                + " " + r.getLive() + " " + r.getRefused())
                .containsExactly("a 10 10 10 null", "b 10 10 10 null", "c null null null namespace c is not selected");
        assertThat(status.getAllocated()).isEqualTo(20L);
        assertThat(status.getLiveConnections()).isEqualTo(20L);
    }
}
