package io.poolbudget.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.DatabaseBudgetStatus;
import io.poolbudget.api.v1alpha1.DatabaseRef;
import io.poolbudget.api.v1alpha1.LedgerStatus;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicySpec;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class DatabaseCardsTest {
    @Test
    void aBudgetSharedWithOtherClustersShowsItsLedgerAndWhyItIsNotInUse() {
        var policy = new PoolPolicy();
        policy.setMetadata(new ObjectMetaBuilder().withNamespace("shop").withName("db").build());
        var spec = new PoolPolicySpec();
        var ref = new DatabaseRef();
        ref.setName("orders");
        spec.setDatabaseRef(ref);
        policy.setSpec(spec);
        var budget = new DatabaseBudget();
        budget.setMetadata(new ObjectMetaBuilder().withName("orders").build());
        var status = new DatabaseBudgetStatus();
        var ledger = new LedgerStatus();
        ledger.setPlanWith(6L);
        status.setLedger(ledger);
        status.setConditions(List.of(new ConditionBuilder().withType("LedgerSynced").withStatus("False")
                .withReason("Unreachable").withMessage("cannot reach the ledger's database").build()));
        budget.setStatus(status);
        var cards = DatabaseCards.of(List.of(policy), Arrays.asList((DashboardView.PolicyView) null), List.of(budget));
        assertThat(cards).singleElement().satisfies(card -> {
            assertThat(card.ledger().getPlanWith()).isEqualTo(6);
            assertThat(card.ledgerProblem()).isEqualTo("cannot reach the ledger's database");
        });
    }
}
