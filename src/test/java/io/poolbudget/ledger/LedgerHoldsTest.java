package io.poolbudget.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.api.v1alpha1.DatabaseBudgetStatus;
import io.poolbudget.api.v1alpha1.LedgerEvidence;
import io.poolbudget.api.v1alpha1.LedgerSpec;
import io.poolbudget.ledger.LedgerSync.State;
import io.poolbudget.planning.BudgetCap;
import io.poolbudget.sizing.ClusterLedger.Claim;
import io.poolbudget.sizing.ClusterLedger.Failed;
import io.poolbudget.sizing.ClusterLedger.Settled;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class LedgerHoldsTest {
    static Settled settled(long planWith, long granted, long target) {
        return new Settled(List.of(new Claim("eu-1", 1, 30, granted, granted, 2_000, "User a"),
                new Claim("eu-2", 1, 30, 30 - granted, 0, 500, "User b")), 30, target, granted, planWith, List.of(),
                List.of(), 1_000);
    }

    static LedgerSpec spec() {
        var spec = new LedgerSpec();
        spec.setName("orders");
        spec.setCluster("eu-1");
        return spec;
    }

    static DatabaseBudgetStatus status(long allocated, long live, Long outside) {
        var row = new DatabaseBudgetStatus.PolicyShare();
        row.setAllocated(allocated);
        row.setLive(live);
        var status = new DatabaseBudgetStatus();
        status.setPolicies(List.of(row, row));
        status.setHeldOutside(outside);
        return status;
    }

    @Test
    void theClaimCoversEachPolicysPlanOrPodsWhicheverIsLargerAndWhatWasHandedOutAtTheLastTwoTicks() {
        assertThat(LedgerHolds.of(status(6, 4, 3L), null)).isEqualTo(6 + 6 + 3);
        assertThat(LedgerHolds.of(status(2, 5, null), null)).isEqualTo(10);
        var state = new State(settled(20, 20, 20), settled(20, 20, 20), 20, 25);
        assertThat(LedgerHolds.of(status(2, 5, null), state)).as("a pass may still apply 25").isEqualTo(25);
        assertThat(LedgerHolds.of(null, null)).isZero();
    }

    @Test
    void untilTheLedgerAnswersAndWhileItCannotThePoliciesKeepWhatTheyPlannedWith() {
        BudgetCap first = LedgerHolds.cap(null, spec());
        assertThat(first).isEqualTo(new BudgetCap(null, true, "what its policies planned with, until ledger orders "
                + "(cluster eu-1) answers"));
        var settled = settled(10, 15, 20);
        assertThat(LedgerHolds.cap(new State(settled, settled, 10, 10), spec())).isEqualTo(new BudgetCap(10L, false,
                "this cluster's part of ledger orders (cluster eu-1): its grant 15 of its target 20"));
        var cut = new State(new Failed("Unreachable", "cannot reach the ledger's database (refused)"), settled, 10,
                10);
        assertThat(LedgerHolds.cap(cut, spec())).isEqualTo(new BudgetCap(10L, true, "what its policies planned with, "
                + "while ledger orders (cluster eu-1) cannot be used (Unreachable: cannot reach the ledger's database "
                + "(refused))"));
    }

    @Test
    void theStatusShowsEveryClaimAndWhichLeasesHaveLapsedButNoLeaseTimes() {
        var settled = settled(10, 15, 20);
        var status = LedgerHolds.status(new State(settled, settled, 10, 10));
        assertThat(status.getPlanWith()).isEqualTo(10);
        assertThat(status.getClusters()).extracting(c -> c.getCluster() + " " + c.getGranted() + " " + c.getLease())
                .containsExactly("eu-1 15 Running", "eu-2 15 Lapsed");
        assertThat(LedgerHolds.status(null)).isNull();
    }

    @Test
    void evidenceIsExactlyTheOneFieldSet() {
        var e = new LedgerEvidence();
        e.setApplicationNamePrefix("eu-1.");
        assertThat(LedgerHolds.evidence(e).describe()).isEqualTo("ApplicationNamePrefix eu-1.");
        Assertions.assertThatThrownBy(() -> LedgerHolds.evidence(new LedgerEvidence()))
                .hasMessage("name one of clientCIDR, applicationNamePrefix or user");
    }
}
