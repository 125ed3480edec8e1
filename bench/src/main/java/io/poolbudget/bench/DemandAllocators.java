package io.poolbudget.bench;

import io.poolbudget.api.v1alpha1.AllocationMode;
import io.poolbudget.api.v1alpha1.AllocationSpec;
import io.poolbudget.decide.DemandState;
import io.poolbudget.decide.DemandStep;
import io.poolbudget.sizing.Allocation;
import io.poolbudget.sizing.DatabaseInput;
import io.poolbudget.sizing.PoolSizer;
import io.poolbudget.sizing.Rollout;
import io.poolbudget.sizing.TargetInput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The operator's Demand decision for the benchmark, the operator's own code: the three workloads are planned by
 * sizing/'s PoolSizer as three targets of one pod each (weight 1, Recreate: cost 1, minPoolSize 1) within the budget,
 * and each decision is decide/'s DemandStep, pure, with its state carried from one to the next as the operator's
 * PolicyMemory carries it (smoothing with the operator's half-life, the ceiling on a sample, one rise per period).
 */
final class DemandAllocators {
    private DemandAllocators() {}

    static DemandController.Allocator operator(BenchOptions o) {
        List<TargetInput> inputs = new ArrayList<>();
        for (String name : DemandFleet.NAMES) {
            inputs.add(TargetInput.builder("Deployment/" + name).replicas(1).rollout(new Rollout.Recreate()).build());
        }
        Allocation plan = PoolSizer.allocate(new DatabaseInput(1, 0, 2, null, 0, o.budget()), inputs);
        var spec = new AllocationSpec();
        spec.setMode(AllocationMode.Demand);
        spec.setLendablePercent(o.lendablePercent());
        spec.setBorrowingLimitPercent(o.borrowingLimitPercent());
        spec.setPeriodSeconds(o.periodSeconds());
        return new DemandController.Allocator() {
            private DemandState state = DemandState.EMPTY;
            private DemandStep.Result last;

            @Override
            public int[] nominal() {
                return inputs.stream().mapToInt(t -> plan.target(t.id()).poolSize()).toArray();
            }

            @Override
            public int[] decide(Integer[] samples, Integer[] recent, int[] current, long nowMs) {
                List<DemandStep.Target> targets = new ArrayList<>();
                for (int w = 0; w < samples.length; w++) {
                    String id = inputs.get(w).id();
                    targets.add(new DemandStep.Target(id, plan.target(id), null, current[w],
                            samples[w] == null ? null : samples[w].doubleValue(), DemandStep.AGENT,
                            recent[w] == null ? null : recent[w].doubleValue()));
                }
                last = DemandStep.decide(spec, targets, state, Instant.ofEpochMilli(nowMs));
                state = last.state();
                return inputs.stream().mapToInt(t -> last.size(t.id(), plan.target(t.id()).poolSize())).toArray();
            }

            @Override
            public String smoothed() {
                return String.join(",", inputs.stream().map(t -> {
                    var track = state.targets().get(t.id());
                    return track == null || track.demand() == null ? "-"
                            : String.format(Locale.ROOT, "%.1f", track.demand());
                }).toArray(String[]::new));
            }

            @Override
            public String explain() {
                return last == null ? "" : String.join("; ", last.rows().entrySet().stream()
                        .map(e -> e.getKey().substring("Deployment/".length()) + ": " + e.getValue().allocation())
                        .toList());
            }
        };
    }
}
