package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Found on the cluster: an HPA with maxReplicas 2³¹ − 1 (or fixedReplicas 2³¹ − 1) overflowed peak pods
 * and ended in "apportionment ended without reaching the budget". Whatever Kubernetes accepts must
 * give a verdict, and whatever the PoolPolicy schema accepts must not overflow.
 */
class OverflowTest {
    private static final int INT_MAX = Integer.MAX_VALUE;

    private static DatabaseInput largest() {
        return new DatabaseInput(Limits.CORES, Limits.SPINDLES, Limits.CONNECTIONS_PER_CORE, null, 0, null);
    }

    @Test
    void theLargestHpaMaximumIsOversubscribedNotACrash() {
        var t = TargetInput.builder("Deployment/web").replicas(INT_MAX).hpaMaxReplicas(INT_MAX).build();
        var a = PoolSizer.allocate(DatabaseInput.ofCores(8), List.of(t));
        assertThat(a.verdict()).isEqualTo(Allocation.Verdict.OVERSUBSCRIBED);
        // 25% surge of 2³¹ − 1 rounds up to 536,870,912; the terminating allowance is one step of surge + unavailable
        assertThat(a.target("Deployment/web").peak().total())
                .isEqualTo(INT_MAX + 536_870_912L + 536_870_912L + 536_870_911L);
        assertThat(a.ratio()).isGreaterThan(1e8);
    }

    @Test
    void aHugePercentageSurgeOnTheLargestReplicaCountStillCounts() {
        var rollout = new Rollout.RollingUpdate(IntOrPercent.percent(INT_MAX), IntOrPercent.percent(100));
        var t = TargetInput.builder("Deployment/web").replicas(INT_MAX).rollout(rollout)
                .poolsPerPod(Limits.POOLS_PER_POD)
                .minPoolSize(Limits.POOL_SIZE).build();
        var a = PoolSizer.allocate(largest(), List.of(t));
        assertThat(a.verdict()).isEqualTo(Allocation.Verdict.OVERSUBSCRIBED);
        assertThat(a.allocated()).as("saturates instead of wrapping negative").isEqualTo(Long.MAX_VALUE);
        assertThat(a.target("Deployment/web").explanation()).contains("connections");
    }

    @Test
    void everyTargetAtTheSchemaMaximumsSumsWithoutWrapping() {
        List<TargetInput> targets = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            targets.add(TargetInput.builder("Deployment/w" + i).replicas(INT_MAX).hpaMaxReplicas(INT_MAX)
                    .poolsPerPod(Limits.POOLS_PER_POD).weight(Limits.WEIGHT).minPoolSize(Limits.POOL_SIZE)
                    .terminatingPods(Limits.REPLICAS).build());
        }
        var a = PoolSizer.allocate(largest(), targets);
        assertThat(a.verdict()).isEqualTo(Allocation.Verdict.OVERSUBSCRIBED);
        assertThat(a.allocated()).isEqualTo(Long.MAX_VALUE);
        assertThat(a.unallocatedReason()).contains("more than 9.2×10¹⁸");
    }

    @Test
    void fixedReplicasAtTheLimitFitOrAreOversubscribed() {
        var t = TargetInput.builder("Deployment/web").replicas(0).basis(Basis.FIXED).fixedReplicas(Limits.REPLICAS)
                .build();
        var a = PoolSizer.allocate(DatabaseInput.ofCores(8), List.of(t));
        assertThat(a.verdict()).isEqualTo(Allocation.Verdict.OVERSUBSCRIBED);
        assertThat(a.target("Deployment/web").peak().total()).isEqualTo(1_000_000 + 250_000 + 500_000);
    }

    @Test
    void valuesPastTheLimitsAreRejectedNamingTheField() {
        assertThatThrownBy(() -> TargetInput.builder("d").field("spec.targets[0]").basis(Basis.FIXED)
                .fixedReplicas(Limits.REPLICAS + 1).build())
                .hasMessage("spec.targets[0].fixedReplicas must be at most 1000000, got 1000001");
        assertThatThrownBy(() -> TargetInput.builder("d").field("spec.targets[0]").poolsPerPod(Limits.POOLS_PER_POD + 1)
                .build()).hasMessage("spec.targets[0].poolsPerPod must be at most 1000, got 1001");
        assertThatThrownBy(() -> Limits.bounded("database.budget", 3_000_000_000L, 1, Limits.CONNECTIONS))
                .hasMessage("database.budget must be at most 1000000, got 3000000000");
        assertThatThrownBy(() -> new DatabaseInput(1, 0, 2, Limits.CONNECTIONS + 1, 0, null))
                .hasMessage("database.maxConnections must be at most 1000000, got 1000001");
    }
}
