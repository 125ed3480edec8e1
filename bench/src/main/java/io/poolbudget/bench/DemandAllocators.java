package io.poolbudget.bench;

/** The operator's Demand decision for the benchmark: its smoothing and its solver, from sizing/. */
final class DemandAllocators {
    private DemandAllocators() {}

    static DemandController.Allocator demand(BenchOptions o) {
        throw new UnsupportedOperationException("the Demand strategy needs sizing/DemandSolver and DemandSignal "
                + "(issue 55), not on this branch yet: run with --strategies equal,oracle");
    }
}
