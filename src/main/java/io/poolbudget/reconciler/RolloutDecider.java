package io.poolbudget.reconciler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides which targets may take their new pool size now. Pure, and derived only from what the
 * cluster shows on this pass (applied sizes, rollout progress) plus the time a raise was first
 * held (kept in status), so a restarted operator decides exactly as the old one would have.
 *
 * <ul>
 *   <li>A lower size (or a first size for a workload never sized) applies at once.</li>
 *   <li>A higher size waits out the stabilisation window, counted from when it was first held.</li>
 *   <li>It then also waits while any target is shrinking or any target's rollout is unfinished:
 *       pods of an old revision may still hold larger pools, and only when they are gone is the
 *       budget actually free.</li>
 * </ul>
 */
public final class RolloutDecider {
    private RolloutDecider() {}

    public enum Action { APPLY, HOLD_FOR_ROLLOUTS, HOLD_FOR_WINDOW, NONE }

    /** {@code applied} is null when the workload carries no size from us yet. */
    public record TargetState(String id, int desired, Integer applied, boolean rolledOut, Instant pendingSince) {
        boolean shrinking() { return applied == null || desired < applied; }

        boolean growing() { return applied != null && desired > applied; }
    }

    /** {@code pendingSince} is set while a raise is held, to be kept in status. */
    public record Decision(String id, Action action, Instant pendingSince, String reason) {}

    public static List<Decision> decide(List<TargetState> targets, Instant now, Duration window) {
        List<String> blockers = new ArrayList<>();
        for (TargetState t : targets) {
            if (t.shrinking()) {
                blockers.add(t.id() + " (shrinking)");
            } else if (!t.rolledOut()) {
                blockers.add(t.id() + " (rolling out)");
            }
        }
        List<Decision> decisions = new ArrayList<>(targets.size());
        for (TargetState t : targets) {
            decisions.add(decide(t, blockers, now, window));
        }
        return decisions;
    }

    private static Decision decide(TargetState t, List<String> blockers, Instant now, Duration window) {
        if (t.shrinking()) {
            return new Decision(t.id(), Action.APPLY, null, t.applied() == null
                    ? "first size for this workload" : "lower size " + t.applied() + " → " + t.desired() + " applies at once");
        }
        if (!t.growing()) {
            return new Decision(t.id(), Action.NONE, null, "size " + t.desired() + " is in place");
        }
        Instant since = t.pendingSince() != null ? t.pendingSince() : now;
        Instant until = since.plus(window);
        if (now.isBefore(until)) {
            return new Decision(t.id(), Action.HOLD_FOR_WINDOW, since, "raise " + t.applied() + " → " + t.desired()
                    + " waits for the stabilisation window until " + until);
        }
        if (!blockers.isEmpty()) {
            return new Decision(t.id(), Action.HOLD_FOR_ROLLOUTS, since, "raise " + t.applied() + " → " + t.desired()
                    + " waits until these finish rolling out: " + String.join(", ", blockers));
        }
        return new Decision(t.id(), Action.APPLY, null, "raise " + t.applied() + " → " + t.desired() + " applies now");
    }

    /** When to look again for raises held only by the window; null when none is. */
    public static Duration nextCheck(List<Decision> decisions, Instant now, Duration window) {
        return decisions.stream().filter(d -> d.action() == Action.HOLD_FOR_WINDOW)
                .map(d -> Duration.between(now, d.pendingSince().plus(window)))
                .min(Duration::compareTo).map(d -> d.isNegative() ? Duration.ZERO : d).orElse(null);
    }
}
