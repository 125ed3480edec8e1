package io.poolbudget.status;

import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.api.v1alpha1.TargetStatus;
import io.poolbudget.api.v1alpha1.TerminatingMark;
import io.poolbudget.decide.DemandStep;
import io.poolbudget.decide.TargetOutcome;
import io.poolbudget.decide.TargetOutcome.State;
import io.poolbudget.planning.TerminatingMarks;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** A policy's status.targets, targetStates and targetsOmitted, from a pass's outcomes. */
final class TargetRows {
    /** Targets listed in full; the object must stay far below the API server's ~1.5 MB limit. */
    static final int DETAILED_TARGETS = 100;
    static final Set<State> PROBLEMS = EnumSet.of(State.Conflict, State.NotFound, State.Invalid, State.Paused,
            State.Stalled);

    private TargetRows() {}

    /**
     * {@code demand}: the allocation by demand's row of each target by its id (empty with mode Weights).
     * Problems first, then held raises, rollouts, the rest; in full up to {@link #DETAILED_TARGETS}. Past that only
     * held raises (Pending, or Stalled and waiting) are kept, in short (their pendingSince is the one thing a later
     * pass needs), and the rest counted.
     */
    static void set(PoolPolicyStatus status, List<TargetOutcome> outcomes,
            Map<String, List<TerminatingMarks.Mark>> marks,
            long budget, Map<String, DemandStep.Row> demand) {
        Map<String, Integer> states = new TreeMap<>();
        outcomes.forEach(o -> states.merge(o.state().name(), 1, Integer::sum));
        status.setTargetStates(states);
        List<TargetOutcome> ordered = outcomes.stream().sorted(Comparator.comparingInt(TargetRows::rank)
                .thenComparing(o -> o.kind() + "/" + o.name())).toList();
        List<TargetStatus> listed = new ArrayList<>();
        for (TargetOutcome o : ordered) {
            if (listed.size() < DETAILED_TARGETS) {
                DemandStep.Row d = demand.get(o.kind() + "/" + o.name());
                listed.add(DemandRows.set(row(o, true, marks, budget, d), d, true));
            } else if (o.pendingSince() != null) {
                DemandStep.Row d = demand.get(o.kind() + "/" + o.name());
                listed.add(DemandRows.set(row(o, false, marks, budget, d), d, false));
            }
        }
        status.setTargets(listed);
        status.setTargetsOmitted(outcomes.size() > listed.size() ? outcomes.size() - listed.size() : null);
    }

    private static int rank(TargetOutcome o) {
        return PROBLEMS.contains(o.state()) ? 0 : o.state() == State.Pending ? 1 : o.state() == State.Rolling ? 2 : 3;
    }

    private static TargetStatus row(TargetOutcome o, boolean full, Map<String, List<TerminatingMarks.Mark>> marks,
            long budget, DemandStep.Row demand) {
        var t = new TargetStatus();
        t.setKind(o.kind());
        t.setName(o.name());
        if (o.allocation() != null) {
            t.setPoolSize(o.allocation().poolSize());
            // what the fit guard compares a raise against, in every row written (the first DETAILED_TARGETS and
            // every pending one; a target without a row is not guarded)
            t.setReplicasThatFit(o.allocation().fit().replicas());
            t.setConnectionsLeft(o.allocation().fit().left());
            // remembered, like pendingSince: the plan reads them back on the next pass
            var recent = o.workload() == null ? null : marks.get(o.workload().id());
            if (recent != null && !recent.isEmpty()) {
                // when each was seen: written once, when it is learned or raised, never on every pass
                t.setTerminatingSeen(recent.stream().map(m -> new TerminatingMark(m.revision(), m.pods(),
                        m.seen() == null ? null : m.seen().toString())).toList());
                t.setSeenTerminatingPods(TerminatingMarks.most(recent));
            }
            if (full) {
                t.setBasisReplicas(o.allocation().peak().basisReplicas());
                t.setPeakPods(o.allocation().peak().total());
                t.setConnections(o.allocation().connections());
                String advice = o.allocation().reserveAdvice(budget);
                String cost = o.allocation().strategyCost();
                String drain = o.allocation().peak().drainAdvice();
                t.setExplanation(o.allocation().peak().explanation() + "; " + DemandRows.sizeWords(o.allocation(),
                        demand)
                        + (cost == null ? "" : "; " + cost) + (advice == null ? "" : ". Note: " + advice)
                        + (drain == null ? "" : ". Note: " + drain));
            }
        }
        t.setAppliedPoolSize(o.applied());
        if (o.resize() != null) {
            t.setResize(o.resize().mode());
            t.setPodsConfirmed(o.resize().confirmed());
            t.setPodsHoldingSize(o.resize().holding());
            t.setPodsPending(o.resize().pending() == null || o.resize().pending().isEmpty() ? null
                    : o.resize().pending());
            t.setAgents(o.resize().agents());
        }
        t.setState(o.state().name());
        if (full) {
            t.setLiveConnections(o.live());
            boolean anyNumber = o.held() != null && o.held().anyNumber();
            t.setLiveConnectionsUnbounded(anyNumber ? Boolean.TRUE : null);
            // the row says what its pods may open where no count is given (issue 53)
            String unbounded = "its pods may open any number of connections (no pool limit until sized)";
            t.setMessage(!anyNumber ? o.message() : o.message() == null ? unbounded : o.message() + "; " + unbounded);
        }
        t.setPendingSince(o.pendingSince() == null ? null : o.pendingSince().toString());
        return t;
    }
}
