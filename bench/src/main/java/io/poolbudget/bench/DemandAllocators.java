package io.poolbudget.bench;

import io.poolbudget.sizing.DemandShare;
import io.poolbudget.sizing.DemandSignal;
import io.poolbudget.sizing.DemandSolver;
import io.poolbudget.sizing.DemandTarget;
import io.poolbudget.sizing.Lending;
import java.util.ArrayList;
import java.util.List;

/**
 * The operator's Demand decision for the benchmark: sizing/'s DemandSignal smooths each pool's demand, DemandSolver
 * solves the three targets (weight 1, cost 1 — one pod with one pool —, nominal = the equal share, minPoolSize 1, no
 * maxPoolSize, allowed to rise every period: the period is the benchmark's only change-rate bound).
 */
final class DemandAllocators {
    private DemandAllocators() {}

    static DemandController.Allocator demand(BenchOptions o) {
        var lending = new Lending(o.lendablePercent(), o.borrowingLimitPercent());
        int[] nominal = o.equalShares();
        return new DemandController.Allocator() {
            private List<DemandShare> last = List.of();

            @Override
            public double smooth(Double previous, double sample, double elapsedSeconds) {
                return DemandSignal.smooth(previous, sample, elapsedSeconds, o.halfLifeSeconds());
            }

            @Override
            public int[] solve(Double[] demand, int[] current) {
                List<DemandTarget> targets = new ArrayList<>();
                for (int w = 0; w < nominal.length; w++) {
                    targets.add(new DemandTarget(DemandFleet.NAMES[w], 1, 1, nominal[w], 1, null,
                            demand[w] == null ? null : Math.min(demand[w], 1_000_000), current[w], true));
                }
                last = DemandSolver.solve(targets, lending);
                return last.stream().mapToInt(DemandShare::size).toArray();
            }

            @Override
            public String explain() {
                return String.join("; ", last.stream().map(s -> s.id() + ": " + s.explanation()).toList());
            }
        };
    }
}
