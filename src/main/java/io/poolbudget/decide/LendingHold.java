package io.poolbudget.decide;

import io.poolbudget.decide.DemandState.Lend;
import io.poolbudget.decide.DemandState.Track;

/**
 * Hysteresis for lending, pure: a target that takes back what it lent within {@link #SOON_PERIODS} periods of lending
 * it lends no more than it lends then (its size is its floor, up to its nominal) for a period, then for twice as long each time it does so again (at most {@link #MOST_PERIODS}
 * periods); one that lent for longer than that starts again with no hold. A quiet load whose watermark comes and goes
 * between two sizes (a second request in flight now and then) would otherwise lend a connection and take it back every
 * few periods, resizing itself and a borrower each time. The hold never stops a take-back: a lender's nominal share is
 * its guarantee. Nor does it make one: a hold that raised the target to its whole nominal took a connection from a
 * busy borrower for a quiet lender that had just shown it needs one fewer (measured in the benchmark).
 */
final class LendingHold {
    private LendingHold() {}

    /** Taking back what was lent within this many periods of lending it is a flap. */
    static final int SOON_PERIODS = 6;
    /** The longest hold: 32 periods (about 5 minutes at the default period). */
    static final int MOST_PERIODS = 32;
    static final String HELD = "lends no more for now: it took back what it lent soon after lending it";

    /** Whether the target lends nothing in this pass (the pass a whole hold after the take-back included). */
    static boolean holds(Track prev, long nowMs) {
        return prev != null && nowMs <= prev.lend().holdUntilMs();
    }

    /** The target's hold after this pass: it was at {@code before} and takes {@code solved}, nominal {@code nominal}. */
    static Lend next(Track prev, int nominal, int before, int solved, long nowMs, long periodMs) {
        Lend lend = prev == null ? Lend.NONE : prev.lend();
        if (solved < nominal && before >= nominal) {
            return new Lend(nowMs, lend.holdUntilMs(), lend.holdMs());
        }
        if (before < nominal && solved > before) {
            if (lend.sinceMs() > 0 && nowMs - lend.sinceMs() < SOON_PERIODS * periodMs) {
                long hold = Math.min(MOST_PERIODS * periodMs, Math.max(periodMs, 2 * lend.holdMs()));
                return new Lend(lend.sinceMs(), nowMs + hold, hold);
            }
            return new Lend(lend.sinceMs(), 0, 0);
        }
        return lend;
    }
}
