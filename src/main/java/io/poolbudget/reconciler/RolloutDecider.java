package io.poolbudget.reconciler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides which targets may take their new pool size now. Pure, and derived only from what the
 * cluster shows on this pass (what the pods hold, rollout progress) plus the time a raise was
 * first held (kept in status), so a restarted operator decides exactly as the old one would have.
 *
 * <p>Every decision compares the new size with what the pods <em>hold</em>: the size the operator
 * applied, or, before it first wrote one, the application's own default (HikariCP 10, Agroal 20).
 * <ul>
 *   <li>A lower size applies at once.</li>
 *   <li>A higher size (a first size above the app's default included) waits out the stabilisation
 *       window, counted from when it was first held, and then waits while any target is shrinking,
 *       still rolling out, or blocked holding more than planned: pods of an old revision may still
 *       hold larger pools, and only when they are gone is the budget actually free.</li>
 *   <li>A first size equal to the app's default changes no pool, but its rollout adds surge pods:
 *       it waits for the others' rollouts, not for the window.</li>
 * </ul>
 */
public final class RolloutDecider {
    private RolloutDecider() {}

    public enum Action { APPLY, HOLD_FOR_ROLLOUTS, HOLD_FOR_WINDOW, NONE }

    /**
     * {@code applied} is null when the workload carries no size from us yet; {@code holds} is what its
     * pods hold now (the applied size, or the app's default before the first write).
     */
    public record TargetState(String id, int desired, Integer applied, int holds, boolean rolledOut, Instant pendingSince) {
        public TargetState(String id, int desired, Integer applied, boolean rolledOut, Instant pendingSince, int appDefault) {
            this(id, desired, applied, applied == null ? appDefault : applied, rolledOut, pendingSince);
        }

        boolean shrinking() { return desired < holds; }

        boolean growing() { return desired > holds; }

        boolean adopting() { return applied == null && desired == holds; }

        private String change() {
            return applied == null ? "first size " + desired + " (the pods hold the app's default " + holds + ")"
                    : holds + " → " + desired;
        }
    }

    /** {@code pendingSince} is set while a raise is held, to be kept in status. */
    public record Decision(String id, Action action, Instant pendingSince, String reason) {}

    public static List<Decision> decide(List<TargetState> targets, Instant now, Duration window) {
        return decide(targets, List.of(), now, window);
    }

    /** {@code otherBlockers}: workloads outside {@code targets} that hold more than planned (a conflict, say). */
    public static List<Decision> decide(List<TargetState> targets, List<String> otherBlockers, Instant now,
                                        Duration window) {
        List<String> blockers = new ArrayList<>(otherBlockers);
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
                    ? t.change() + " applies at once" : "lower size " + t.change() + " applies at once");
        }
        if (t.adopting()) {
            return blockers.isEmpty() ? new Decision(t.id(), Action.APPLY, null, t.change() + " applies now")
                    : new Decision(t.id(), Action.HOLD_FOR_ROLLOUTS, null, t.change() + " waits until these finish "
                            + "rolling out, since its own rollout adds surge pods: " + list(blockers));
        }
        if (!t.growing()) {
            return new Decision(t.id(), Action.NONE, null, "size " + t.desired() + " is in place");
        }
        Instant since = t.pendingSince() != null ? t.pendingSince() : now;
        Instant until = since.plus(window);
        String raise = t.applied() == null ? t.change() : "raise " + t.change();
        if (now.isBefore(until)) {
            return new Decision(t.id(), Action.HOLD_FOR_WINDOW, since, raise + " waits for the stabilisation window until "
                    + until);
        }
        if (!blockers.isEmpty()) {
            return new Decision(t.id(), Action.HOLD_FOR_ROLLOUTS, since, raise + " waits until these finish rolling out: "
                    + list(blockers));
        }
        return new Decision(t.id(), Action.APPLY, null, raise + " applies now");
    }

    /** The first few, and how many more: a message must stay short however many targets a policy has. */
    static String list(List<String> items) {
        int shown = Math.min(items.size(), 5);
        return String.join(", ", items.subList(0, shown)) + (items.size() > shown ? " and " + (items.size() - shown)
                + " more" : "");
    }

    /** When to look again for raises held only by the window; null when none is. */
    public static Duration nextCheck(List<Decision> decisions, Instant now, Duration window) {
        return decisions.stream().filter(d -> d.action() == Action.HOLD_FOR_WINDOW)
                .map(d -> Duration.between(now, d.pendingSince().plus(window)))
                .min(Duration::compareTo).map(d -> d.isNegative() ? Duration.ZERO : d).orElse(null);
    }
}
