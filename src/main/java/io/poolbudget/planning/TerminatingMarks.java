package io.poolbudget.planning;

import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.sizing.Allocation;
import io.poolbudget.sizing.TargetAllocation;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How many old pods of a workload's recent rollouts were seen terminating at once, one mark per rollout
 * (the revision its new pods carry), newest last. Only old pods that overlap a rollout's new ones count:
 * pods removed by a scale-down, or by an HPA, share the revision of the pods that stay and are not marks.
 * The plan allows for the most of the last {@value #REMEMBERED} rollouts, so one slow shutdown raises
 * peak pods, and {@value #REMEMBERED} rollouts that do not repeat it let peak pods fall back; so does time: a mark
 * lapses {@link #LASTS} after it was seen, for the rollouts that would forget it may never come.
 */
public final class TerminatingMarks {
    /** Rollouts remembered: a mark is forgotten after this many later rollouts. */
    public static final int REMEMBERED = 3;
    /** How long a mark is kept at most, whether or not later rollouts come. */
    public static final Duration LASTS = Duration.ofHours(24);

    /**
     * One rollout's mark: the revision of its new pods, the most of its old pods seen terminating at once, and when
     * that was seen ({@code seen}; null where the plan is made without a clock, as by the plan command).
     */
    public record Mark(String revision, long pods, Instant seen) {
        public Mark(String revision, long pods) {
            this(revision, pods, null);
        }

        /** When it lapses by time; null where it was seen at no known time. */
        public Instant lapses() {
            return seen == null ? null : seen.plus(LASTS);
        }
    }

    /** What a pass sees now: the revision of the newest running pods and how many older pods are terminating. */
    public record Overlap(String revision, int oldTerminating) {}

    private TerminatingMarks() {}

    /** {@link #update(List, Overlap, Instant)} without a clock: nothing lapses by time. */
    public static List<Mark> update(List<Mark> before, Overlap now) {
        return update(before, now, null);
    }

    /**
     * The marks after a pass at {@code when} (null: no clock): those that lapsed by then dropped (a mark read without a
     * time is taken as seen then, once), the current rollout's mark raised to what it sees (seen again then),
     * the oldest dropped past the limit.
     */
    public static List<Mark> update(List<Mark> before, Overlap now, Instant when) {
        Instant at = when == null ? null : when.truncatedTo(ChronoUnit.SECONDS); // as status says it
        List<Mark> marks = new ArrayList<>();
        for (Mark m : before == null ? List.<Mark>of() : before) {
            Mark stamped = m.seen() == null && at != null ? new Mark(m.revision(), m.pods(), at) : m;
            if (at == null || stamped.lapses() == null || at.isBefore(stamped.lapses())) {
                marks.add(stamped);
            }
        }
        if (now == null || now.revision() == null || now.oldTerminating() <= 0) {
            return List.copyOf(marks);
        }
        for (int i = 0; i < marks.size(); i++) {
            if (marks.get(i).revision().equals(now.revision())) {
                if (marks.get(i).pods() < now.oldTerminating()) {
                    marks.set(i, new Mark(now.revision(), now.oldTerminating(), at));
                }
                return List.copyOf(marks);
            }
        }
        marks.add(new Mark(now.revision(), now.oldTerminating(), at));
        while (marks.size() > REMEMBERED) {
            marks.remove(0);
        }
        return List.copyOf(marks);
    }

    /**
     * Each workload's recent rollouts as the policy's status recorded them, by workload id. A status written before
     * marks were kept has only seenTerminatingPods: it stands as one rollout of an unknown revision, forgotten like the
     * others; one written before marks said when they were seen has no time: they are taken as seen now.
     */
    public static Map<String, List<Mark>> recorded(PoolPolicy policy) {
        Map<String, List<Mark>> marks = new HashMap<>();
        if (policy.getStatus() != null && policy.getStatus().getTargets() != null) {
            for (var t : policy.getStatus().getTargets()) {
                String id = t.getKind() + "/" + t.getName();
                if (t.getTerminatingSeen() != null) {
                    marks.put(id, t.getTerminatingSeen().stream()
                            .filter(m -> m.getRevision() != null && m.getPods() != null)
                            .map(m -> new Mark(m.getRevision(), m.getPods(), instant(m.getSeen()))).toList());
                } else if (t.getSeenTerminatingPods() != null) {
                    marks.put(id, List.of(new Mark("", t.getSeenTerminatingPods())));
                }
            }
        }
        return marks;
    }

    /** A time as status wrote it; null where there is none or it does not parse (the mark is then taken as seen now). */
    private static Instant instant(String text) {
        try {
            return text == null ? null : Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The most old pods any remembered rollout saw terminating at once; 0 without marks. */
    public static long most(List<Mark> marks) {
        return marks == null ? 0 : marks.stream().mapToLong(Mark::pods).max().orElse(0);
    }

    /**
     * An oversubscribed plan ({@code with}) whose minimums fit the budget without what the marks alone add
     * ({@code without}: the same plan, each target planning for the pods it sees terminating now but not for its marks):
     * its reason then says so, for each target the marks raise, with what was seen, when the marks lapse and how to
     * plan without them at once. Any other plan is returned as it is.
     */
    public static Allocation blamed(Allocation with, Allocation without, Map<String, List<Mark>> marks) {
        if (with.verdict() != Allocation.Verdict.OVERSUBSCRIBED || without.verdict() != Allocation.Verdict.FITS) {
            return with;
        }
        List<String> raised = new ArrayList<>();
        for (TargetAllocation t : with.targets()) {
            long plain = without.target(t.id()).peak().terminating();
            if (t.peak().terminating() > plain) {
                raised.add(raise(t, plain, marks.get(t.id())));
            }
        }
        if (raised.isEmpty()) {
            return with;
        }
        String why = with.unallocatedReason() + ". It is a mark learned from slow shutdowns the operator saw that "
                + "takes the minimums past the budget (they fit without it): " + String.join("; ", raised);
        return new Allocation(with.budget(), with.targets(), with.verdict(), why);
    }

    /** One target the marks raise: what was seen, when it lapses, and the field that plans without it now. */
    private static String raise(TargetAllocation t, long plain, List<Mark> marks) {
        List<Mark> above = marks == null ? List.of() : marks.stream().filter(m -> m.pods() > plain).toList();
        Instant lapses = above.stream().map(Mark::lapses).filter(Objects::nonNull).max(Instant::compareTo)
                .orElse(null);
        return t.id() + " plans for " + t.peak().terminating() + " terminating pods, as " + most(above)
                + " of its old pods were seen terminating at once in a recent rollout (status.targets[]"
                + ".terminatingSeen), where it would plan for " + plain + " without that; the mark lapses after "
                + REMEMBERED + " later rollouts that do not repeat it"
                + (lapses == null ? "" : " or at " + lapses + ", " + LASTS.toHours() + " h after it was seen")
                + ", whichever comes first. If its pods do not really take that long to stop, set "
                + t.peak().target().field() + ".terminatingPods: " + plain + " to plan without it now";
    }
}
