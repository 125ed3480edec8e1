package io.poolbudget.decide;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.poolbudget.planning.InvalidPolicyException;
import io.poolbudget.planning.PolicyPlanner.PolicyPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What one pass over a policy intends, as data: every target in order, each with its outcome or the write it needs;
 * whether its status is announced before the writes go out; when to look again. Nothing here has been written:
 * {@link #result} says what became of the pass once the writes have returned.
 */
public record Decision(PolicyPlan plan, InvalidPolicyException invalid, List<Slot> targets, boolean announce,
        Duration requeue, List<Write> podWrites, DemandStep.Result demand) {

    public Decision(PolicyPlan plan, InvalidPolicyException invalid, List<Slot> targets, boolean announce,
            Duration requeue) {
        this(plan, invalid, targets, announce, requeue, List.of());
    }

    public Decision(PolicyPlan plan, InvalidPolicyException invalid, List<Slot> targets, boolean announce,
            Duration requeue, List<Write> podWrites) {
        this(plan, invalid, targets, announce, requeue, podWrites, null);
    }

    /*
     * podWrites: resize mode Live, the sizes published to running pods (an annotation each), applied after the targets'
     * writes; their outcomes are the targets' (a pod gone in between is simply not written). demand: the allocation by
     * demand's rows and new state (null with mode Weights).
     */

    /** A target: its outcome, or the write that gives it one (exactly one of the two). */
    public record Slot(TargetOutcome outcome, Write write) {}

    /**
     * One target's write: the partial objects to apply in order under {@code fieldManager} (its ConfigMap, then the
     * workload), the target as the status shows it while they go out ({@code writing}) and once they are in
     * ({@code written}), and the size it carried before.
     */
    public record Write(String fieldManager, List<HasMetadata> objects, TargetOutcome writing, TargetOutcome written,
            Integer appliedBefore) {
        /** The target when the API server refuses the write for a reason a user must fix (another field manager). */
        public TargetOutcome refused(String problem) {
            return written.with(appliedBefore, TargetOutcome.State.Conflict, problem, null, false);
        }
    }

    static Decision invalid(InvalidPolicyException e) {
        return new Decision(null, e, List.of(), false, null);
    }

    public List<Write> writes() {
        return targets.stream().map(Slot::write).filter(w -> w != null).toList();
    }

    /** The pass as its status shows it while the writes go out; null when it announces nothing. */
    public PassResult announced() {
        return !announce ? null : new PassResult(plan, null, targets.stream()
                .map(s -> s.write() == null ? s.outcome() : s.write().writing()).toList(), null, rows());
    }

    /**
     * The pass once its writes have returned: {@code problems} holds, for each of {@link #writes}, null when it was
     * applied, else why it was refused.
     */
    public PassResult result(List<String> problems) {
        if (invalid != null) {
            return PassResult.invalid(invalid);
        }
        List<TargetOutcome> outcomes = new ArrayList<>(targets.size());
        int next = 0;
        for (Slot s : targets) {
            if (s.write() == null) {
                outcomes.add(s.outcome());
            } else {
                String problem = problems.get(next++);
                outcomes.add(problem == null ? s.write().written() : s.write().refused(problem));
            }
        }
        return new PassResult(plan, null, outcomes, requeue, rows());
    }

    /** The allocation by demand's status rows by target id, empty with mode Weights. */
    private java.util.Map<String, DemandStep.Row> rows() {
        return demand == null ? java.util.Map.of() : demand.rows();
    }
}
