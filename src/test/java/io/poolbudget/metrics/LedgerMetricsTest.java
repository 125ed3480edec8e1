package io.poolbudget.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.poolbudget.ledger.LedgerSync.State;
import io.poolbudget.sizing.ClusterLedger.Claim;
import io.poolbudget.sizing.ClusterLedger.Failed;
import io.poolbudget.sizing.ClusterLedger.Settled;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LedgerMetricsTest {
    @Test
    void eachClustersClaimAndThisClustersPlanAreSeriesAndAFailedTickIsNotSynced() {
        var registry = new SimpleMeterRegistry();
        var metrics = new LedgerMetrics(registry);
        var settled = new Settled(List.of(new Claim("eu-1", 1, 30, 15, 15, 2_000, "User a"),
                new Claim("eu-2", 1, 30, 15, 12, 500, "User b")), 30, 20, 15, 15, List.of(), List.of(), 1_000);
        metrics.publish(Map.of("orders", new State(settled, settled, 15, 15)));
        assertThat(registry.get("poolbudget_ledger_granted_connections").tags("budget", "orders", "cluster", "eu-2")
                .gauge().value()).isEqualTo(15);
        assertThat(registry.get("poolbudget_ledger_held_connections").tags("cluster", "eu-2").gauge().value())
                .isEqualTo(12);
        assertThat(registry.get("poolbudget_ledger_lease_lapsed").tags("cluster", "eu-2").gauge().value()).isOne();
        assertThat(registry.get("poolbudget_ledger_lease_lapsed").tags("cluster", "eu-1").gauge().value()).isZero();
        assertThat(registry.get("poolbudget_ledger_plan_connections").gauge().value()).isEqualTo(15);
        assertThat(registry.get("poolbudget_ledger_target_connections").gauge().value()).isEqualTo(20);
        assertThat(registry.get("poolbudget_ledger_synced").gauge().value()).isOne();

        metrics.publish(Map.of("orders", new State(new Failed("Unreachable", "refused"), settled, 15, 15)));
        assertThat(registry.get("poolbudget_ledger_synced").gauge().value()).isZero();
        metrics.publish(Map.of());
        assertThat(registry.find("poolbudget_ledger_plan_connections").gauges()).isEmpty();
    }
}
