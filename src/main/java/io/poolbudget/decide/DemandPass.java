package io.poolbudget.decide;

import io.poolbudget.api.v1alpha1.AllocationMode;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.decide.RolloutDecider.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The demand allocation's part of a {@link PolicyPass}: each sized target's sample in, {@link DemandStep} over them,
 * and in mode Demand the solved sizes as the sizes the rollout rules decide on. A size from demand goes the way every
 * size goes: a lower one applies at once (published to the pods live), a higher one waits while any target is
 * shrinking or has pods that have not confirmed their size ({@link RolloutDecider}), so a borrower's pods get more only
 * once the lenders' pods confirm less, and a lender's pod that does not confirm is counted at its larger size.
 */
final class DemandPass {
    private DemandPass() {}

    /** The step over the sized targets (null with mode Weights); in mode Demand {@code sized} takes its sizes. */
    static DemandStep.Result step(PoolPolicy policy, ClusterView view, List<Sized> sized, DemandInput in,
            Instant now) {
        var spec = policy.getSpec().getAllocation();
        if (AllocationMode.of(spec) == AllocationMode.Weights) {
            return null;
        }
        List<DemandStep.Target> targets = new ArrayList<>(sized.size());
        for (Sized s : sized) {
            var sample = DemandSamples.of(view, s.workload(), in);
            targets.add(new DemandStep.Target(s.workload().id(), s.allocation(), notLive(s), s.state().applied(),
                    sample.perPod(), sample.source(), sample.recent()));
        }
        var result = DemandStep.decide(spec, targets, in.state(), now);
        sized.replaceAll(s -> s.sizedAt(result.size(s.workload().id(), s.allocation().poolSize())));
        return result.withReadClosely(watched(view, sized, result));
    }

    /**
     * The pods of the targets whose sizes follow demand (mode Demand): their agents are watched (AgentScraper), so that
     * a pod that starts to starve is seen within the agent's sample, however quiet it was: a lender whose load returns
     * takes its share back, and a target at its nominal share whose load grows borrows, without waiting for a read.
     */
    static java.util.Set<String> watched(ClusterView view, List<Sized> sized, DemandStep.Result result) {
        java.util.Set<String> uids = new java.util.HashSet<>();
        for (Sized s : sized) {
            if (result.moves(s.workload().id())) {
                view.pods(s.workload()).forEach(p -> uids.add(p.getMetadata().getUid()));
            }
        }
        return uids;
    }

    /**
     * The rollout rules' verdicts. The stabilisation window of raises does not apply to a size from demand: it exists
     * so that replicas that flap do not roll workloads out twice, while a size from demand is published to running
     * pods without a restart, changes at most once a period (a raise at most once a period, by the step's bound), and
     * moves only when demand leaves the solver's hysteresis band. Holding a borrower for the window (3 minutes by
     * default) would keep the connections a lender no longer uses idle for longer than a load phase lasts. The
     * shrink-first gate still holds: a raise from demand waits, as any raise, until no target is shrinking and every
     * pod confirms its size. Targets whose sizes do not come from demand keep the window.
     */
    static List<Verdict> verdicts(List<Sized> sized, List<String> blockers, Instant now, Duration window,
            DemandStep.Result demand) {
        return RolloutDecider.decide(sized.stream().map(Sized::state).toList(), blockers, now,
                t -> demand != null && demand.moves(t.id()) ? Duration.ZERO : window);
    }

    /**
     * Looks again within a period while the allocation follows demand: a new demand alone wakes no pass, only a pod that
     * starts to starve does (AgentScraper), so that a lender gets its nominal back at once.
     */
    static Duration next(Duration next, DemandStep.Result demand) {
        if (demand == null) {
            return next;
        }
        return next == null || demand.period().compareTo(next) < 0 ? demand.period() : next;
    }

    /** Why the target's pods do not resize live, so it keeps its nominal share; null when they do. */
    private static String notLive(Sized s) {
        var lt = s.resize();
        return lt == null ? "spec.injection.resize is not Live"
                : lt.cannotAdd() != null ? lt.cannotAdd()
                        : !lt.agentIn() ? "the live-resize agent goes into its pods with its next write"
                                : lt.pods() == null ? "no live size is published to its pods yet" : null;
    }
}
