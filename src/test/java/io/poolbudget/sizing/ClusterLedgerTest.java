package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poolbudget.sizing.ClusterLedger.Claim;
import io.poolbudget.sizing.ClusterLedger.Refused;
import io.poolbudget.sizing.ClusterLedger.Settled;
import io.poolbudget.sizing.ClusterLedger.Tick;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One cluster's tick on the ledger, case by case; {@link ClusterLedgerPropertiesTest} holds the invariants. */
class ClusterLedgerTest {
    static final long NOW = 1_000_000;

    static Claim claim(String cluster, int weight, long granted, long holds, long leaseUntil) {
        return new Claim(cluster, weight, 30, granted, holds, leaseUntil, "application_name " + cluster + "-%");
    }

    static Tick tick(String cluster, int weight, long holds) {
        return new Tick(cluster, weight, 30, holds, 15_000, "application_name " + cluster + "-%");
    }

    static Settled settled(List<Claim> claims, Tick tick, Map<String, Long> seen) {
        return (Settled) ClusterLedger.tick(claims, tick, NOW, seen);
    }

    @Test
    void theFirstClusterIsGrantedTheWholeBudget() {
        Settled s = settled(List.of(), tick("eu-1", 1, 0), Map.of());
        assertThat(s.budget()).isEqualTo(30);
        assertThat(s.target()).isEqualTo(30);
        assertThat(s.granted()).isEqualTo(30);
        assertThat(s.planWith()).isEqualTo(30);
        assertThat(s.events()).containsExactly("cluster eu-1 joined with weight 1, granted 30");
        assertThat(s.claims()).containsExactly(new Claim("eu-1", 1, 30, 30, 0, NOW + 15_000,
                "application_name eu-1-%"));
    }

    @Test
    void aSecondClusterWaitsForTheFirstToShrinkAndThenTakesItsShare() {
        // eu-1 holds the whole budget; eu-2 (weight 2) joins: it may use only what is free, nothing yet
        Settled joined = settled(List.of(claim("eu-1", 1, 30, 30, NOW + 5_000)), tick("eu-2", 2, 0), Map.of());
        assertThat(joined.target()).isEqualTo(20);
        assertThat(joined.granted()).isZero();
        assertThat(joined.planWith()).isZero();
        assertThat(joined.waits()).containsExactly("cluster eu-1 still holds 30 until its pods confirm a smaller size");
        // eu-1's next tick: its target is 10, it plans with 10, and its grant stays at what its pods hold
        Settled first = settled(joined.claims(), tick("eu-1", 1, 30), Map.of());
        assertThat(first.target()).isEqualTo(10);
        assertThat(first.planWith()).isEqualTo(10);
        assertThat(first.granted()).isEqualTo(30);
        // its pods confirm 10: its grant goes down to 10, and eu-2 gets its 20
        Settled confirmed = settled(first.claims(), tick("eu-1", 1, 10), Map.of());
        assertThat(confirmed.granted()).isEqualTo(10);
        assertThat(confirmed.events()).containsExactly("cluster eu-1 granted 30 → 10");
        Settled second = settled(confirmed.claims(), tick("eu-2", 2, 0), Map.of());
        assertThat(second.granted()).isEqualTo(20);
        assertThat(second.planWith()).isEqualTo(20);
        assertThat(second.waits()).isEmpty();
    }

    @Test
    void aLapsedClaimIsKeptWhileItsConnectionsAreOpenOrUnknownAndFreedWhenTheyAreGone() {
        List<Claim> ledger = List.of(claim("eu-1", 1, 15, 15, NOW - 1), claim("eu-2", 1, 15, 15, NOW + 5_000));
        Settled open = settled(ledger, tick("eu-2", 1, 15), Map.of("eu-1", 4L));
        assertThat(open.target()).isEqualTo(15);
        assertThat(open.planWith()).isEqualTo(15);
        assertThat(open.waits()).containsExactly("cluster eu-1 still holds 15 until its lease ends and its "
                + "connections close (4 open, application_name eu-1-%)");
        Settled unknown = settled(ledger, tick("eu-2", 1, 15), Map.of());
        assertThat(unknown.claims()).extracting(Claim::cluster).containsExactly("eu-1", "eu-2");
        assertThat(unknown.waits()).singleElement().asString().contains("its connections could not be read");
        Settled gone = settled(ledger, tick("eu-2", 1, 15), Map.of("eu-1", 0L));
        assertThat(gone.claims()).extracting(Claim::cluster).containsExactly("eu-2");
        assertThat(gone.target()).isEqualTo(30);
        assertThat(gone.granted()).isEqualTo(30);
        assertThat(gone.events()).containsExactly("freed cluster eu-1's 15: its lease lapsed and the database shows "
                + "none of its connections (application_name eu-1-%)", "cluster eu-2 granted 15 → 30");
    }

    @Test
    void aClaimWhoseLeaseRunsIsNeverFreedEvenWithNoConnections() {
        Settled s = settled(List.of(claim("eu-1", 1, 15, 0, NOW)), tick("eu-2", 1, 0), Map.of("eu-1", 0L));
        assertThat(s.claims()).extracting(Claim::cluster).containsExactly("eu-1", "eu-2");
        assertThat(s.granted()).isEqualTo(15);
    }

    @Test
    void theSmallestDeclaredBudgetHoldsAndNoClusterRaisesWhileTheClustersHoldMore() {
        var lower = new Claim("eu-1", 1, 20, 20, 20, NOW + 5_000, "user eu1");
        Settled s = settled(List.of(lower), tick("eu-2", 1, 10), Map.of());
        assertThat(s.budget()).isEqualTo(20);
        assertThat(s.target()).isEqualTo(10);
        assertThat(s.granted()).isEqualTo(10); // what its pods hold, not more
        assertThat(s.waits()).contains("the clusters hold 30 of a budget of 20: no raise until they shrink");
    }

    @Test
    void anOperatorThatJustStartedKeepsItsGrantOnItsFirstTickWhateverItsStatusesSay() {
        // eu-1 was granted 20 before its operator restarted; eu-2 asks for its share
        List<Claim> ledger = List.of(claim("eu-1", 1, 20, 20, NOW + 5_000), claim("eu-2", 1, 10, 10, NOW + 5_000));
        Tick resuming = new Tick("eu-1", 1, 30, 0, 15_000, "application_name eu-1-%", true);
        Settled s = settled(ledger, resuming, Map.of());
        assertThat(s.granted()).isEqualTo(20);
        assertThat(s.planWith()).isEqualTo(15);
        Settled next = settled(s.claims(), tick("eu-1", 1, 15), Map.of());
        assertThat(next.granted()).isEqualTo(15);
    }

    @Test
    void rowsNoTickWritesAreRefusedNamingTheRow() {
        assertThat(ClusterLedger.tick(List.of(claim("eu-1", 1, 5, 9, NOW)), tick("eu-2", 1, 0), NOW, Map.of()))
                .isEqualTo(new Refused("ledger row of cluster eu-1: granted 5 is less than the 9 its pods hold, "
                        + "which no tick writes"));
        assertThat(ClusterLedger.tick(List.of(claim("eu-1", 0, 5, 5, NOW)), tick("eu-2", 1, 0), NOW, Map.of()))
                .isEqualTo(new Refused("ledger row of cluster eu-1: weight 0 is outside 1..1000000"));
        assertThat(ClusterLedger.tick(List.of(claim("eu-1", 1, -5, -5, NOW)), tick("eu-2", 1, 0), NOW, Map.of()))
                .isEqualTo(new Refused("ledger row of cluster eu-1: granted -5 and holds -5 may not be negative"));
        assertThat(ClusterLedger.tick(List.of(claim("eu-1", 1, 5, 5, NOW), claim("eu-1", 1, 5, 5, NOW)),
                tick("eu-2", 1, 0), NOW, Map.of()))
                .isEqualTo(new Refused("ledger row of cluster eu-1 appears 2 times"));
    }

    @Test
    void aTickWithoutAWeightOrLeaseIsAProgrammingError() {
        assertThatThrownBy(() -> tick("eu-1", 0, 0)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("ledger weight");
    }
}
