package io.poolbudget.planning;

import java.util.ArrayList;
import java.util.List;

/**
 * How many old pods of a workload's recent rollouts were seen terminating at once, one mark per rollout
 * (the revision its new pods carry), newest last. Only old pods that overlap a rollout's new ones count:
 * pods removed by a scale-down, or by an HPA, share the revision of the pods that stay and are not marks.
 * The plan allows for the most of the last {@value #REMEMBERED} rollouts, so one slow shutdown raises
 * peak pods, and {@value #REMEMBERED} rollouts that do not repeat it let peak pods fall back.
 */
public final class TerminatingMarks {
    /** Rollouts remembered: a mark is forgotten after this many later rollouts. */
    public static final int REMEMBERED = 3;

    /** One rollout's mark: the revision of its new pods, and the most of its old pods seen terminating at once. */
    public record Mark(String revision, long pods) {}

    /** What a pass sees now: the revision of the newest running pods and how many older pods are terminating. */
    public record Overlap(String revision, int oldTerminating) {}

    private TerminatingMarks() {}

    /** The marks after this pass: the current rollout's mark raised to what it sees, the oldest dropped past the limit. */
    public static List<Mark> update(List<Mark> before, Overlap now) {
        List<Mark> marks = new ArrayList<>(before == null ? List.of() : before);
        if (now == null || now.revision() == null || now.oldTerminating() <= 0) {
            return List.copyOf(marks);
        }
        for (int i = 0; i < marks.size(); i++) {
            if (marks.get(i).revision().equals(now.revision())) {
                if (marks.get(i).pods() < now.oldTerminating()) {
                    marks.set(i, new Mark(now.revision(), now.oldTerminating()));
                }
                return List.copyOf(marks);
            }
        }
        marks.add(new Mark(now.revision(), now.oldTerminating()));
        while (marks.size() > REMEMBERED) {
            marks.remove(0);
        }
        return List.copyOf(marks);
    }

    /** The most old pods any remembered rollout saw terminating at once; 0 without marks. */
    public static long most(List<Mark> marks) {
        return marks == null ? 0 : marks.stream().mapToLong(Mark::pods).max().orElse(0);
    }
}
