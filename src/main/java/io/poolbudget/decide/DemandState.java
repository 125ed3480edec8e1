package io.poolbudget.decide;

import java.util.Map;

/**
 * What the demand allocation remembers of a policy between passes, per target id (kind/name): kept in the process's
 * memory only, handed to {@link DemandStep} as input and returned new, never changed in place. Lost on a restart, every
 * target starts again at its nominal share with no smoothed demand, which is safe: the nominal sizes fit the budget at
 * peak pods, and a borrower shrinks to its nominal at once while the lenders' raises back wait for it to confirm.
 */
public record DemandState(Map<String, Track> targets) {
    public static final DemandState EMPTY = new DemandState(Map.of());

    public DemandState {
        targets = Map.copyOf(targets);
    }

    /**
     * One target: its smoothed demand per pod (null: none reported) as of {@code atMs} (epoch ms), the size the
     * allocation last gave it (applied in mode Demand, recommended in Recommend), when that size last rose (epoch ms,
     * 0: never in this process), when it last changed at all (epoch ms, 0: never in this process), the recommendation last announced by an Event (null: none open), the demand per pod
     * status shows (null: none), and its lending hold: when it last began to lend (epoch ms, 0: not in this process),
     * until when it lends nothing (epoch ms) and how long that hold was.
     */
    public record Track(Double demand, long atMs, int size, long roseAtMs, long changedAtMs, Integer announced,
            Integer shown,
            Lend lend) {
        public Track {
            lend = lend == null ? Lend.NONE : lend;
        }
    }

    /**
     * A target's lending hold ({@link DemandStep}): one that takes back what it lent soon after lending it lends nothing
     * for a while, twice as long each time it does so again, so a load at the edge of its nominal share does not move
     * connections back and forth every period.
     */
    public record Lend(long sinceMs, long holdUntilMs, long holdMs) {
        public static final Lend NONE = new Lend(0, 0, 0);
    }

    Track of(String id) {
        return targets.get(id);
    }
}
