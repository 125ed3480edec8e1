package io.poolbudget.decide;

import io.poolbudget.planning.Workload;
import io.poolbudget.sizing.TargetAllocation;
import java.time.Instant;

/**
 * What one pass makes of one target: its state and why, the size its template carries, and what its pods hold.
 * {@code allocation} and {@code workload} are null for a target that resolved to nothing; {@code held} is null when
 * the workload does not exist; {@code transition}, where the rollout of a lower size may take the policy past its
 * budget, says so (its message ends with it too; null elsewhere).
 */
public record TargetOutcome(String kind, String name, Workload workload, TargetAllocation allocation, Integer applied,
        State state, String message, Instant pendingSince, boolean wrote, Held held, Resize resize,
        String transition) {

    public TargetOutcome(String kind, String name, Workload workload, TargetAllocation allocation, Integer applied,
            State state, String message, Instant pendingSince, boolean wrote, Held held, Resize resize) {
        this(kind, name, workload, allocation, applied, state, message, pendingSince, wrote, held, resize, null);
    }

    public TargetOutcome(String kind, String name, Workload workload, TargetAllocation allocation, Integer applied,
            State state, String message, Instant pendingSince, boolean wrote, Held held) {
        this(kind, name, workload, allocation, applied, state, message, pendingSince, wrote, held, null);
    }

    /** The same target with what its rollout may hold past the budget, said ({@link #transition}). */
    public TargetOutcome withTransition(String note) {
        return new TargetOutcome(kind, name, workload, allocation, applied, state, message + "; " + note, pendingSince,
                wrote, held, resize, note);
    }

    /** Its message without the {@link #transition} it ends with. */
    public String messageAlone() {
        return transition == null || !message.endsWith("; " + transition) ? message
                : message.substring(0, message.length() - transition.length() - 2);
    }

    /**
     * How its pods take a new size ({@code mode} Live or Rollout) and, in Live, how many hold the applied size
     * ({@code holding}), of them confirmed by their agent, and the first pods that do not yet, with why; {@code agents}:
     * each running pod's agent as last read, those that cannot size their pools first (see {@link LivePods});
     * {@code agentProblems}: every agent that cannot, for a Warning.
     */
    public record Resize(String mode, Integer confirmed, Integer holding, java.util.List<String> pending,
            java.util.List<String> agents, java.util.List<String> agentProblems) {
        public Resize(String mode, Integer confirmed, Integer holding, java.util.List<String> pending) {
            this(mode, confirmed, holding, pending, null, java.util.List.of());
        }
    }

    /** The same target with how its pods take a new size. */
    public TargetOutcome with(Resize resize) {
        return new TargetOutcome(kind, name, workload, allocation, applied, state, message, pendingSince, wrote, held,
                resize, transition);
    }

    /** A target's state, as status.targets[].state says it. */
    public enum State {
        Applied, Rolling, Stalled, Paused, Pending, DryRun, Conflict, NotFound, Invalid
    }

    /**
     * What a target's pods hold now, in connections, by their own specs, terminating pods included: {@code connections}
     * in all; {@code atDefault} of them counted at the app's default for pods that carry no size (what such a pod may
     * open, not what it holds); {@code departing}, not among them, pods the operator did not size that left the
     * workload's count and may still hold theirs (see {@link PodCounts.Live}). {@code pods}: its pods counted
     * (terminating ones included), of them {@code atDefaultPods} at the app's default; {@code anyNumber} ({@code
     * departingAnyNumber}): some of those (of the departing ones) run an app with no pool limit without its variable,
     * so what they may open is any number: the sums count them at {@link io.poolbudget.sizing.Limits#POOL_SIZE},
     * which is not to be shown.
     */
    public record Held(long connections, long atDefault, long departing, int pods, int atDefaultPods,
            boolean anyNumber, boolean departingAnyNumber) {
        public static Held of(PodCounts.Live live) {
            return new Held(live.connections(), live.atDefault(), live.departing(), live.pods(),
                    live.atDefaultPods(), live.anyNumber(), live.departingAnyNumber());
        }
    }

    /** A target named by the spec that resolved to nothing. */
    public static TargetOutcome missing(String kind, String name, String problem) {
        return new TargetOutcome(kind, name, null, null, null, State.NotFound, problem, null, false, null);
    }

    /** Connections the pods hold now; null when the workload does not exist or they may open any number. */
    public Long live() {
        return held == null || held.anyNumber() ? null : held.connections();
    }

    /** The same target in another state. */
    public TargetOutcome with(Integer applied, State state, String message, Instant pendingSince, boolean wrote) {
        return new TargetOutcome(kind, name, workload, allocation, applied, state, message, pendingSince, wrote, held,
                resize);
    }
}
