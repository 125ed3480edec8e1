package io.poolbudget.decide;

import io.poolbudget.api.v1alpha1.AllocationMode;
import io.poolbudget.api.v1alpha1.AllocationSpec;
import io.poolbudget.sizing.DemandShare;
import io.poolbudget.sizing.DemandSignal;
import io.poolbudget.sizing.DemandSolver;
import io.poolbudget.sizing.DemandTarget;
import io.poolbudget.sizing.Lending;
import io.poolbudget.sizing.Limits;
import io.poolbudget.sizing.TargetAllocation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * spec.allocation Demand and Recommend in one pass, pure: the targets' demand samples and the policy's
 * {@link DemandState} in, each target's size, status row and the new state out. Demand smooths each sample
 * ({@link DemandSignal}, half-life {@link #HALF_LIFE_PERIODS} periods) and solves the targets that take part
 * ({@link DemandSolver}); Demand gives them the solved sizes, which the rollout rules then apply as any size
 * (shrink-first with evidence), Recommend keeps every size nominal and says what Demand would give.
 */
public final class DemandStep {
    private DemandStep() {}

    /**
     * The smoothed demand halves its distance to a lower sample every period, while a rise is taken at once. The agents'
     * demand is already the high watermark of a period (a lull shorter than that does not show), and a lender whose
     * callers start to wait takes its nominal share back within seconds, so a longer half-life would only keep a busy
     * phase's connections from the next busy target: at 3 periods, a borrower that went quiet lent again a minute later.
     */
    public static final int HALF_LIFE_PERIODS = 1;
    public static final String AGENT = "agent";
    public static final String DATABASE = "database (in use only)";
    /** A shown demand stays while the smoothed one is within 15% of it (a ±10% wobble and its rounding). */
    static final double SHOWN_BAND = 0.15;

    /**
     * One target as the pass sees it: its plan by weights, why its pods do not resize live (null: they do), the size in
     * force (null: none written yet), its demand sample per pod (null: none), where the sample comes from, and its
     * recent demand per pod (the agents' last two seconds; null: not said, the sample stands for it).
     */
    public record Target(String id, TargetAllocation allocation, String notLive, Integer applied, Double sample,
            String source, Double recent) {
        /** A target whose recent demand is not said. */
        public Target(String id, TargetAllocation allocation, String notLive, Integer applied, Double sample,
                String source) {
            this(id, allocation, notLive, applied, sample, source, null);
        }
    }

    /**
     * A target's status fields: demand per pod rounded up, its source, its nominal size, the size it takes now, the size
     * Demand would give it (mode Recommend), and what the allocation did, in one line.
     */
    public record Row(Integer demand, String source, int nominal, int size, Integer recommended, String allocation) {}

    /**
     * Rows by target id; the targets solved; the new state; the AllocationRecommended Events to say; when to solve again;
     * the pods whose agents are watched (uids: those of targets whose sizes follow demand, see
     * {@link DemandPass#watched}).
     */
    public record Result(AllocationMode mode, Map<String, Row> rows, java.util.Set<String> solved, DemandState state,
            List<String> recommendations, Duration period, java.util.Set<String> readClosely) {
        public Result {
            readClosely = readClosely == null ? java.util.Set.of() : java.util.Set.copyOf(readClosely);
        }

        Result withReadClosely(java.util.Set<String> pods) {
            return new Result(mode, rows, solved, state, recommendations, period, pods);
        }

        /** The size the target takes: its row's, else {@code nominal}. */
        public int size(String id, int nominal) {
            Row r = rows.get(id);
            return r == null ? nominal : r.size();
        }

        /** Whether the target's size comes from its demand: mode Demand, and its pods resize live. */
        public boolean moves(String id) {
            return mode == AllocationMode.Demand && solved.contains(id);
        }
    }

    private static final String KEEPS = "keeps its nominal share";

    /** Null with mode Weights: nothing to do. */
    public static Result decide(AllocationSpec spec, List<Target> targets, DemandState before, Instant now) {
        AllocationMode mode = AllocationMode.of(spec);
        if (mode == AllocationMode.Weights) {
            return null;
        }
        var lending = new Lending(spec.lendablePercentOrDefault(), spec.borrowingLimitPercentOrDefault());
        long periodMs = spec.periodSecondsOrDefault() * 1000L;
        long nowMs = now.toEpochMilli();
        Map<String, Double> smoothed = new HashMap<>();
        Map<String, Double> recent = new HashMap<>();
        List<DemandTarget> solving = new ArrayList<>();
        for (Target t : targets) {
            DemandState.Track prev = before.of(t.id());
            // counted up to the most it could be given: 300 callers queued at a pool of 10 would otherwise keep it
            // looking busy for many half-lives after its load ended, and every other target with it
            int ceiling = DemandSolver.ceiling(t.allocation().poolSize(),
                    t.allocation().peak().target().maxPoolSize(), lending);
            Double sample = t.sample() == null ? null : Math.min(ceiling, Math.max(0, t.sample()));
            recent.put(t.id(), t.recent() == null || sample == null ? sample
                    : Double.valueOf(Math.min(sample, Math.max(0, t.recent()))));
            Double d = sample == null ? null : DemandSignal.smooth(prev == null ? null : prev.demand(), sample,
                    prev == null ? 0 : Math.max(0, nowMs - prev.atMs()) / 1000.0,
                    HALF_LIFE_PERIODS * periodMs / 1000.0);
            smoothed.put(t.id(), d);
            if (mode == AllocationMode.Recommend || t.notLive() == null) {
                TargetAllocation a = t.allocation();
                int current = last(prev, mode, t);
                boolean mayRise = prev == null || prev.roseAtMs() == 0 || nowMs - prev.roseAtMs() >= periodMs;
                // a target on a lending hold lends no more than it lends now: its size (up to nominal) is its floor
                int least = Math.max(a.peak().target().minPoolSize(),
                        LendingHold.holds(prev, nowMs) ? Math.min(a.poolSize(), current) : 0);
                solving.add(new DemandTarget(t.id(), a.weight(), a.peak().cost(), a.poolSize(), least,
                        a.peak().target().maxPoolSize(), d,
                        Math.min(Limits.POOL_SIZE, Math.max(0, current)), mayRise));
            }
        }
        boolean contended = DemandCalm.contended(solving, lending);
        if (contended) {
            solving = DemandCalm.atTheirSample(solving, recent, smoothed);
        }
        Map<String, DemandShare> shares = new HashMap<>();
        // each demand said as status shows it (rounded, kept within its band), so a steady load writes the same line
        Function<DemandTarget, String> said = d -> String.valueOf(shown(smoothed.get(d.id()), before.of(d.id())));
        List<DemandShare> solution = DemandSolver.solve(solving, lending, said);
        if (!contended) {
            solution = DemandCalm.keepRecentSizes(solving, solution, before, nowMs, periodMs, said);
        }
        String over = guard(solving, solution, shares);
        Map<String, Row> rows = new LinkedHashMap<>();
        Map<String, DemandState.Track> tracks = new HashMap<>();
        List<String> announce = new ArrayList<>();
        for (Target t : targets) {
            DemandState.Track prev = before.of(t.id());
            Double d = smoothed.get(t.id());
            Integer demand = shown(d, prev);
            int nominal = t.allocation().poolSize();
            DemandShare share = shares.get(t.id());
            int solved = share == null ? nominal : share.size();
            int last = last(prev, mode, t);
            String why = share == null ? KEEPS + ": its pods do not resize live (" + t.notLive() + ")"
                    : over != null ? KEEPS + ": " + over : share.explanation()
                            + (LendingHold.holds(prev, nowMs) && solved == Math.min(nominal, last)
                                    ? "; " + LendingHold.HELD : "");
            // a take-back up to the nominal share is the target's guarantee, not the period's one rise above it
            long roseAt = share != null && solved > last && solved > nominal ? nowMs
                    : prev == null ? 0 : prev.roseAtMs();
            Integer announced = null;
            Row row;
            if (mode == AllocationMode.Demand) {
                row = new Row(demand, demand == null ? null : t.source(), nominal, solved, null, why);
            } else {
                int applied = t.applied() == null ? nominal : t.applied();
                String text = share == null ? why : "would give " + solved + ": " + why;
                row = new Row(demand, demand == null ? null : t.source(), nominal, nominal, solved, text);
                if (Math.abs(solved - applied) > 1) {
                    announced = solved;
                    if (prev == null || !Integer.valueOf(solved).equals(prev.announced())) {
                        announce.add(t.id() + ": mode Demand would give pool size " + solved + " instead of " + applied
                                + " (" + text + ")");
                    }
                }
            }
            rows.put(t.id(), row);
            long changed = solved != last ? nowMs : prev == null ? 0 : prev.changedAtMs();
            tracks.put(t.id(), new DemandState.Track(d, nowMs, solved, roseAt, changed, announced, demand,
                    LendingHold.next(prev, nominal, last, solved, nowMs, periodMs)));
        }
        return new Result(mode, rows, java.util.Set.copyOf(shares.keySet()), new DemandState(tracks),
                List.copyOf(announce),
                Duration.ofMillis(periodMs), null);
    }

    /**
     * The size in force before this pass, as the step sees it: the one it last solved, else (a first pass, or after a
     * restart) in mode Demand the size its pods hold, else the nominal one.
     */
    private static int last(DemandState.Track prev, AllocationMode mode, Target t) {
        return prev != null ? prev.size()
                : mode == AllocationMode.Demand && t.applied() != null ? t.applied() : t.allocation().poolSize();
    }

    /**
     * The solver's sizes into {@code out}, checked: Σ size × cost over the targets taking part never exceeds Σ nominal ×
     * cost (the solver's guarantee, on which the budget rests). Were it ever broken, every target keeps its nominal size,
     * the error is logged, and the returned text says why (null while it holds).
     */
    static String guard(List<DemandTarget> targets, List<DemandShare> solved, Map<String, DemandShare> out) {
        long nominal = 0;
        long given = 0;
        for (int i = 0; i < targets.size(); i++) {
            long cost = targets.get(i).cost();
            nominal = Math.addExact(nominal, Math.multiplyExact(cost, targets.get(i).nominal()));
            given = Math.addExact(given, Math.multiplyExact(cost, solved.get(i).size()));
        }
        if (given <= nominal) {
            solved.forEach(s -> out.put(s.id(), s));
            return null;
        }
        String why = "the demand allocation came to " + given + " connections at peak pods, more than the "
                + nominal + " of the nominal shares; an operator bug, please report it";
        org.jboss.logging.Logger.getLogger(DemandStep.class).errorf("%s: %s", targets.stream()
                .map(DemandTarget::id).toList(), why);
        for (int i = 0; i < targets.size(); i++) {
            DemandTarget t = targets.get(i);
            DemandShare s = solved.get(i);
            out.put(t.id(), new DemandShare(t.id(), t.nominal(), s.floor(), s.ceiling(), t.nominal(), t.demand(), why));
        }
        return why;
    }

    /**
     * The demand status shows, in whole connections per pod: the one shown last while the smoothed demand stays within
     * {@link #SHOWN_BAND} of it, so that a load that wobbles as loads do (the agents' watermark moves by a connection
     * or two) writes no status; else the smoothed demand rounded up.
     */
    private static Integer shown(Double d, DemandState.Track prev) {
        if (d == null) {
            return null;
        }
        Integer last = prev == null ? null : prev.shown();
        if (last != null && Math.abs(d - last) <= SHOWN_BAND * last) {
            return last;
        }
        return (int) Math.ceil(d - 1e-9);
    }
}
