package io.poolbudget.status;

import java.util.ArrayList;
import java.util.List;

/** What the pods hold, in the words status and Events use for it. */
public final class Holding {
    private Holding() {}

    /**
     * "the pods hold 16{@code of}", saying what is counted: where pods the operator has not sized yet are counted at
     * the app's default pool, that is what they may open, not what they hold (the database's own count, with
     * spec.database.observe, tells); pods that may still be shutting down are named. {@code anyNumber}: some of those
     * pods have no pool limit (see {@link io.poolbudget.sizing.Limits#noPoolLimit}): then no sum is a number, and none
     * is said. {@code note} comes first in the parenthesis (may be null).
     */
    public static String words(long live, long atDefault, long departing, boolean anyNumber, String of, String note) {
        List<String> notes = new ArrayList<>();
        if (note != null) {
            notes.add(note);
        }
        if (anyNumber) {
            // a preset whose app has no pool limit without its variable (gitea), or one derived from the node's CPUs
            return "the pods may open any number of connections (pods the operator has not sized yet have no pool "
                    + "limit without its variable: every raise waits until they are sized"
                    + (notes.isEmpty() ? "" : "; " + String.join("; ", notes)) + ")";
        }
        if (atDefault > 0) {
            notes.add(atDefault
                    + " of them at the app's default pool, for pods the operator has not sized yet: what those "
                    + "may open, not what they hold");
        }
        if (departing > 0) {
            notes.add(departing + " of them in pods it did not size that have left their workload and may still be "
                    + "shutting down, counted until their terminationGracePeriodSeconds is over");
        }
        return (atDefault > 0 ? "the pods may open " : "the pods hold ") + live + of
                + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")");
    }
}
