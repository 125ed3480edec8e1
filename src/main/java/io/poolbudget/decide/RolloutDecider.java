package io.poolbudget.decide;

import io.poolbudget.sizing.Limits;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

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
 *   <li>A target whose rollout is stalled (its new pods do not start) never waits for its own rollout: only a write
 *       can end it. A raise that goes back toward what its running pods hold (the size they started with, above the
 *       one that does not start) adds no connections to what they hold: it waits neither for the window nor for
 *       rollouts, only for targets whose pods hold more than their plan gives them.</li>
 *   <li>A raise past what its running pods hold is taken in two steps where they hold more than the size written (a
 *       stall on the way back, a shrink still rolling out): the size they hold goes out at once, as the step above,
 *       and the rest after the window. At that size every pod, old or new, holds no more than the step, so the target
 *       stays within peak pods × step ≤ its plan, and no pod holds more than one already does.</li>
 * </ul>
 */
public final class RolloutDecider {
    private RolloutDecider() {}

    public enum Action {
        APPLY, HOLD_FOR_ROLLOUTS, HOLD_FOR_WINDOW, NONE
    }

    /**
     * {@code applied} is null when the workload carries no size from us yet; {@code holds} is what its
     * pods hold now (the applied size, or the app's default before the first write); {@code stalled}: its rollout is
     * not progressing; {@code runningHolds}: the largest pool one of its running pods holds (0 without any).
     */
    public record TargetState(String id, int desired, Integer applied, int holds, boolean rolledOut,
            Instant pendingSince,
            boolean stalled, int runningHolds) {
        public TargetState(String id, int desired, Integer applied, boolean rolledOut, Instant pendingSince,
                int appDefault) {
            this(id, desired, applied, rolledOut, pendingSince, appDefault, false,
                    applied == null ? appDefault : applied);
        }

        public TargetState(String id, int desired, Integer applied, boolean rolledOut, Instant pendingSince,
                int appDefault,
                boolean stalled, int runningHolds) {
            this(id, desired, applied, applied == null ? appDefault : applied, rolledOut, pendingSince, stalled,
                    runningHolds);
        }

        public boolean shrinking() {
            return desired < holds;
        }

        public boolean growing() {
            return desired > holds;
        }

        public boolean adopting() {
            return applied == null && desired == holds;
        }

        /** Its pods, or the size written into it, hold more than the plan gives it. */
        public boolean overPlan() {
            return desired < Math.max(holds, runningHolds);
        }

        /** A raise of a stalled target back toward what its running pods hold: no connections added. */
        public boolean returning() {
            return stalled && growing() && desired <= runningHolds;
        }

        /**
         * The part of a raise its running pods already hold: their largest pool, where it is above the size written
         * and within the plan; 0 when there is none. Written, it leaves every pod, old or new, at no more than it.
         */
        public int heldPart() {
            return growing() && runningHolds > holds && runningHolds <= desired ? runningHolds : 0;
        }

        private String change() {
            return applied == null ? "first size " + desired + " (" + atDefault(holds) + ")" : holds + " → " + desired;
        }
    }

    /**
     * What pods the operator has not sized hold, {@code perPod} each: "the pods hold the app's default 10", or where the
     * app has no pool limit without its variable, that they may open any number (never the number it is counted at).
     */
    static String atDefault(int perPod) {
        return Limits.noPoolLimit(perPod) ? "the pods have no pool limit until sized: they may open any number of "
                + "connections" : "the pods hold the app's default " + perPod;
    }

    /** "the 2 its running pods hold", or for a running pod without a pool limit, that they may open any number. */
    private static String running(int perPod) {
        return Limits.noPoolLimit(perPod) ? "what its running pods may open (any number: a pod not sized yet has no "
                + "pool limit)" : "the " + perPod + " its running pods hold";
    }

    /** What a target makes others wait for; {@code overPlan}: its pods may hold more than its plan gives it. */
    private record Blocker(String id, String text, boolean overPlan) {}

    /**
     * {@code pendingSince} is set while a raise is held, to be kept in status; {@code step}, with a held raise, the
     * part of it to write now (null: none).
     */
    public record Verdict(String id, Action action, Instant pendingSince, String reason, Integer step) {
        public Verdict(String id, Action action, Instant pendingSince, String reason) {
            this(id, action, pendingSince, reason, null);
        }
    }

    public static List<Verdict> decide(List<TargetState> targets, Instant now, Duration window) {
        return decide(targets, List.of(), now, window);
    }

    /** {@code otherBlockers}: workloads outside {@code targets} that hold more than planned (a conflict, say). */
    public static List<Verdict> decide(List<TargetState> targets, List<String> otherBlockers, Instant now,
            Duration window) {
        return decide(targets, otherBlockers, now, t -> window);
    }

    /**
     * {@code windowOf}: each target's stabilisation window of raises (a size from demand takes none: DemandPass). The
     * rest is shared: a target with no window still waits for the others' shrinks and rollouts.
     */
    public static List<Verdict> decide(List<TargetState> targets, List<String> otherBlockers, Instant now,
            Function<TargetState, Duration> windowOf) {
        List<Blocker> blockers = new ArrayList<>();
        otherBlockers.forEach(b -> blockers.add(new Blocker(null, b, true)));
        for (TargetState t : targets) {
            if (t.shrinking()) {
                blockers.add(new Blocker(t.id(), t.id() + " (shrinking)", true));
            } else if (!t.rolledOut()) {
                blockers.add(new Blocker(t.id(), t.id() + (t.stalled() ? " (its rollout is not progressing)"
                        : " (rolling out)"), t.overPlan()));
            }
        }
        List<Verdict> decisions = new ArrayList<>(targets.size());
        for (TargetState t : targets) {
            // a stalled rollout ends only by a write: its own target never waits for it
            List<Blocker> others = t.stalled() ? blockers.stream().filter(b -> !t.id().equals(b.id())).toList()
                    : blockers;
            decisions.add(decide(t, others, now, windowOf.apply(t)));
        }
        return decisions;
    }

    private static Verdict decide(TargetState t, List<Blocker> blockers, Instant now, Duration window) {
        List<String> all = blockers.stream().map(Blocker::text).toList();
        if (t.shrinking()) {
            return new Verdict(t.id(), Action.APPLY, null, t.applied() == null
                    ? t.change() + " applies at once" : "lower size " + t.change() + " applies at once");
        }
        if (t.adopting()) {
            return all.isEmpty() ? new Verdict(t.id(), Action.APPLY, null, t.change() + " applies now")
                    : new Verdict(t.id(), Action.HOLD_FOR_ROLLOUTS, null, t.change() + " waits until these finish "
                            + "rolling out, since its own rollout adds surge pods: " + list(all));
        }
        if (!t.growing()) {
            return new Verdict(t.id(), Action.NONE, null, "size " + t.desired() + " is in place");
        }
        List<String> over = blockers.stream().filter(Blocker::overPlan).map(Blocker::text).toList();
        if (t.returning()) {
            String back = "raise " + t.change() + " goes back toward " + running(t.runningHolds())
                    + ", so it adds no connections, and only a write can end its stalled rollout";
            return over.isEmpty() ? new Verdict(t.id(), Action.APPLY, null, back + ": applies now")
                    : new Verdict(t.id(), Action.HOLD_FOR_ROLLOUTS, null, back + "; it waits until these hold no more "
                            + "than planned: " + list(over));
        }
        return raise(t, all, over, now, window);
    }

    /** A raise past what its pods hold: after the window and the rollouts, its held part (if any) at once. */
    private static Verdict raise(TargetState t, List<String> all, List<String> over, Instant now, Duration window) {
        Instant since = t.pendingSince() != null ? t.pendingSince() : now;
        Instant until = since.plus(window);
        String raise = t.applied() == null ? t.change() : "raise " + t.change();
        Action action = now.isBefore(until) ? Action.HOLD_FOR_WINDOW
                : !all.isEmpty() ? Action.HOLD_FOR_ROLLOUTS : Action.APPLY;
        if (action == Action.APPLY) {
            return new Verdict(t.id(), Action.APPLY, null, raise + " applies now");
        }
        String waits = action == Action.HOLD_FOR_WINDOW ? "waits for the stabilisation window until " + until
                : "waits until these finish rolling out: " + list(all);
        int part = t.heldPart();
        if (part == 0 || !over.isEmpty()) { // while others hold more than planned, a step could pass the budget
            return new Verdict(t.id(), action, since, raise + " " + waits);
        }
        String held = raise + ": its running pods hold " + part + " already, so " + part + " adds no connections";
        return part == t.desired() ? new Verdict(t.id(), Action.APPLY, null, held + ": applies now")
                : new Verdict(t.id(), action, since, held + " and is written now; the rest, " + part + " → "
                        + t.desired() + ", " + waits, part);
    }

    /** The first few, and how many more: a message must stay short however many targets a policy has. */
    public static String list(List<String> items) {
        int shown = Math.min(items.size(), 5);
        return String.join(", ", items.subList(0, shown)) + (items.size() > shown ? " and " + (items.size() - shown)
                + " more" : "");
    }

    /** When to look again for raises held only by the window; null when none is. */
    public static Duration nextCheck(List<Verdict> decisions, Instant now, Duration window) {
        return decisions.stream().filter(d -> d.action() == Action.HOLD_FOR_WINDOW)
                .map(d -> Duration.between(now, d.pendingSince().plus(window)))
                .min(Duration::compareTo).map(d -> d.isNegative() ? Duration.ZERO : d).orElse(null);
    }
}
