package io.poolbudget.status;

import io.poolbudget.decide.PassResult;
import io.poolbudget.decide.TargetOutcome;
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

    /**
     * Why the pods of a pass that fits declare more than the budget while nothing rolls: the cause that holds. More
     * pods than a target's peak pods is blamed only where a target runs more; pods the operator has not sized yet,
     * counted at the app's default, are named as such (they are not too many pods: their pool is not sized yet); what
     * else is left, pools larger than planned.
     */
    static String cause(PassResult result) {
        List<String> causes = new ArrayList<>();
        List<String> crowded = new ArrayList<>();
        List<String> unsizedIn = new ArrayList<>();
        long pods = 0;
        long peak = 0;
        int unsized = 0;
        long atDefault = 0;
        boolean anyNumber = false;
        for (TargetOutcome t : result.targets()) {
            if (t.held() == null || t.allocation() == null) {
                continue;
            }
            String id = t.kind() + "/" + t.name();
            long planned = t.allocation().peak().total();
            if (t.held().pods() > planned) {
                crowded.add(id + " runs " + t.held().pods() + " pods of its " + planned + " peak pods"
                        + (t.live() != null && t.live() > t.allocation().connections() ? " and holds " + t.live()
                                + " of its " + t.allocation().connections() + " connections" : ""));
            }
            if (t.held().atDefaultPods() > 0) {
                unsizedIn.add(id);
            }
            pods += t.held().pods();
            peak += planned;
            unsized += t.held().atDefaultPods();
            atDefault += t.held().atDefault();
            anyNumber |= t.held().anyNumber();
        }
        if (!crowded.isEmpty()) {
            causes.add("more pods hold pools at once than the plan's peak pods allow for (old pods that outlast a "
                    + "rollout step, or pods started outside a rollout): " + String.join(", ", crowded));
        }
        if (unsized > 0) {
            causes.add(unsized(unsized, String.join(", ", unsizedIn), atDefault, anyNumber)
                    + (crowded.isEmpty() ? "; the " + pods + " pods are within the plan's " + peak + " peak pods"
                            : ""));
        }
        if (causes.isEmpty()) {
            causes.add("pods hold larger pools than the plan gives them" + overAllocation(result));
        }
        return String.join("; ", causes);
    }

    /**
     * "1 pod the operator has not sized yet (Deployment/web) may open the app's default pool (20 connections): ...";
     * {@code in}: the targets they are of.
     */
    private static String unsized(int pods, String in, long atDefault, boolean anyNumber) {
        String which = (pods == 1 ? "1 pod" : pods + " pods") + " the operator has not sized yet (" + in + ")";
        String until = pods == 1 ? "it counts so until a pod the operator sized replaces it"
                : "they count so until pods the operator sized replace them";
        return which + (anyNumber ? " may open any number of connections (the app has no pool limit without its "
                + "variable)"
                : " may open the app's default pool (" + atDefault + " connections"
                        + (pods == 1 ? "" : " in all") + ")")
                + ": " + until;
    }

    /** The targets whose pods hold more than their allocation, as ": Deployment/web holds 16 of its 12". */
    private static String overAllocation(PassResult result) {
        var over = result.targets().stream().filter(t -> t.live() != null && t.allocation() != null
                && t.live() > t.allocation().connections())
                .map(t -> t.kind() + "/" + t.name() + " holds " + t.live() + " of its " + t.allocation().connections())
                .toList();
        return over.isEmpty() ? "" : ": " + String.join(", ", over);
    }
}
