package io.poolbudget.decide;

import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.TargetStatus;
import io.poolbudget.decide.Decision.Slot;
import io.poolbudget.decide.RolloutDecider.Verdict;
import io.poolbudget.decide.TargetOutcome.State;
import io.poolbudget.planning.InvalidPolicyException;
import io.poolbudget.planning.PolicyPlanner;
import io.poolbudget.planning.PolicyPlanner.PolicyPlan;
import io.poolbudget.planning.SharedBudgets;
import io.poolbudget.sizing.TransitionPeaks;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * One pass over one PoolPolicy, decided: plan, find conflicts with other policies, decide what may change now, and
 * say, for every target, what it is and what must be written for it. Reads only the view it is given and writes
 * nothing: the writes it intends are data ({@link Decision}), which the controller has applied. Its steps: the plan,
 * each target read ({@link PassReader}), the allocation by demand ({@link DemandPass}), the rollout rules' verdicts
 * ({@link RolloutDecider}), and each target's outcome or write ({@link PassWriter}).
 */
public final class PolicyPass {
    private PolicyPass() {}

    /** Where the operator runs without DatabaseBudgets. */
    private static final PolicyPlanner.SharedBudgets OFF = p -> {
        throw new InvalidPolicyException("spec.databaseRef", "names DatabaseBudget " + SharedBudgets.ref(p)
                + ", but this "
                + "installation does not read DatabaseBudgets (it watches only some namespaces, or sharedBudgets.enabled "
                + "is false): give this policy its own spec.database");
    };

    /**
     * The pass: {@code neighbours} are the policies of its namespace (for claims), {@code shared} the DatabaseBudgets a
     * policy may draw on (null where there are none), {@code window} the stabilisation window of raises.
     */
    public static Decision decide(PoolPolicy policy, ClusterView view, Collection<PoolPolicy> neighbours,
            SharedBudgets shared, Instant now, Duration window) {
        return decide(policy, view, neighbours, shared, now, window, null);
    }

    /** {@code agentImage}: the operator's own image, where resize mode Live's init container copies the agent from. */
    public static Decision decide(PoolPolicy policy, ClusterView view, Collection<PoolPolicy> neighbours,
            SharedBudgets shared, Instant now, Duration window, String agentImage) {
        return decide(policy, view, neighbours, shared, now, window, agentImage, DemandInput.NONE);
    }

    /** {@code demand}: what the allocation by demand remembers and what the database has in use (DemandPass). */
    public static Decision decide(PoolPolicy policy, ClusterView view, Collection<PoolPolicy> neighbours,
            SharedBudgets shared, Instant now, Duration window, String agentImage, DemandInput demand) {
        PolicyPlan plan;
        try {
            plan = PolicyPlanner.plan(policy, view, shared == null ? OFF : shared);
        } catch (InvalidPolicyException e) {
            return Decision.invalid(e);
        }
        var reader = new PassReader(policy, view, neighbours, shared, agentImage, now);
        List<Slot> slots = new ArrayList<>();
        List<Sized> sized = new ArrayList<>();
        for (int i = 0; i < plan.targets().size(); i++) {
            reader.read(plan.targets().get(i), plan.allocation().targets().get(i), slots, sized);
        }
        DemandStep.Result allocation = DemandPass.step(policy, view, sized, demand, now);
        List<Verdict> verdicts = DemandPass.verdicts(sized, reader.blockers, now, window, allocation);
        var writer = new PassWriter(reader);
        boolean retrying = false;
        List<TransitionPeaks.Change> changes = new ArrayList<>();
        for (int i = 0; i < sized.size(); i++) {
            Slot slot = writer.slot(sized.get(i), verdicts.get(i));
            TargetStatus before = slot.write() == null ? null : reader.previous.get(sized.get(i).workload().id());
            retrying |= before != null && State.Conflict.name().equals(before.getState());
            slots.add(slot);
            writer.change(sized.get(i), slot, changes);
        }
        TransitionNotes.annotate(slots, changes, plan.allocation());
        plan.missing().forEach(m -> slots.add(new Slot(TargetOutcome.missing(m.kind().name(), m.name(), m.problem()),
                null)));
        // The status goes out before the writes, not among them: a write rolls a workload out, and ten rollouts
        // starting at once slow the API server for the status that says why. Not where a write failed last time: a
        // status saying it is being written again would read as resolved, only to say the same failure a moment later.
        boolean announce = !retrying && slots.stream().anyMatch(s -> s.write() != null);
        Duration next = reader.dryRun ? null : RolloutDecider.nextCheck(verdicts, now, window);
        if (writer.liveDeadline > 0) { // a pod that has not confirmed a live size by then makes its target roll out
            Duration live = Duration.ofMillis(Math.max(0, writer.liveDeadline - now.toEpochMilli()));
            next = next == null || live.compareTo(next) < 0 ? live : next;
        }
        return new Decision(plan, null, slots, announce, DemandPass.next(next, allocation),
                List.copyOf(writer.podWrites), allocation);
    }
}
