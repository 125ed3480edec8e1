package io.poolbudget.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.poolbudget.ledger.LedgerSync;
import io.poolbudget.sizing.ClusterLedger.Settled;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The ledgers' series (issue 57), per DatabaseBudget with spec.ledger: every cluster's grant and holding and whether its
 * lease runs, as this cluster's last settled tick read them, and what this cluster plans with, its target, and whether
 * its last tick settled. Rewritten after every pass of the ledger's ticks.
 */
@jakarta.inject.Singleton
@io.quarkus.runtime.Startup // nothing injects it: it listens to the ledger's ticks
public final class LedgerMetrics {
    private final MultiGauge granted;
    private final MultiGauge holds;
    private final MultiGauge lapsed;
    private final MultiGauge plan;
    private final MultiGauge target;
    private final MultiGauge synced;

    @jakarta.inject.Inject
    public LedgerMetrics(MeterRegistry registry, LedgerSync ledgers) {
        this(registry);
        ledgers.onTicks(this::publish);
    }

    LedgerMetrics(MeterRegistry registry) {
        granted = gauge(registry, "poolbudget_ledger_granted_connections",
                "What the ledger grants each cluster: what its pods may hold (status.ledger.clusters[].granted)");
        holds = gauge(registry, "poolbudget_ledger_held_connections",
                "What each cluster last reported its pods may hold (status.ledger.clusters[].holds)");
        lapsed = gauge(registry, "poolbudget_ledger_lease_lapsed",
                "1 where a cluster's lease has lapsed: its operator stopped renewing, its claim stands until its "
                        + "connections are gone");
        plan = gauge(registry, "poolbudget_ledger_plan_connections",
                "What this cluster's policies split of the budget (status.ledger.planWith)");
        target = gauge(registry, "poolbudget_ledger_target_connections",
                "This cluster's part of the budget by weight (status.ledger.target)");
        synced = gauge(registry, "poolbudget_ledger_synced",
                "1 where this cluster's last tick settled, 0 where the ledger could not be used (LedgerSynced=False)");
    }

    private static MultiGauge gauge(MeterRegistry registry, String name, String help) {
        return MultiGauge.builder(name).description(help).register(registry);
    }

    /** Every budget's rows, from the states of its ticks. */
    void publish(Map<String, LedgerSync.State> states) {
        List<MultiGauge.Row<?>> grantedRows = new ArrayList<>();
        List<MultiGauge.Row<?>> holdsRows = new ArrayList<>();
        List<MultiGauge.Row<?>> lapsedRows = new ArrayList<>();
        List<MultiGauge.Row<?>> planRows = new ArrayList<>();
        List<MultiGauge.Row<?>> targetRows = new ArrayList<>();
        List<MultiGauge.Row<?>> syncedRows = new ArrayList<>();
        states.forEach((budget, state) -> {
            Tags of = Tags.of("budget", budget);
            syncedRows.add(MultiGauge.Row.of(of, state.latest() instanceof Settled ? 1 : 0));
            Settled s = state.settled();
            if (s == null) {
                return;
            }
            planRows.add(MultiGauge.Row.of(of, s.planWith()));
            targetRows.add(MultiGauge.Row.of(of, s.target()));
            for (var c : s.claims()) {
                Tags cluster = of.and("cluster", c.cluster());
                grantedRows.add(MultiGauge.Row.of(cluster, c.granted()));
                holdsRows.add(MultiGauge.Row.of(cluster, c.holds()));
                lapsedRows.add(MultiGauge.Row.of(cluster, c.leaseUntil() < s.at() ? 1 : 0));
            }
        });
        granted.register(grantedRows, true);
        holds.register(holdsRows, true);
        lapsed.register(lapsedRows, true);
        plan.register(planRows, true);
        target.register(targetRows, true);
        synced.register(syncedRows, true);
    }
}
