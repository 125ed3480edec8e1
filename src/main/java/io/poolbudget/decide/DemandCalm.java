package io.poolbudget.decide;

import io.poolbudget.sizing.DemandShare;
import io.poolbudget.sizing.DemandSolver;
import io.poolbudget.sizing.DemandTarget;
import io.poolbudget.sizing.Lending;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Calm against need, pure: the smoothing and the size bands keep sizes still while nobody needs them to move, and step
 * aside while somebody does.
 * <ul>
 * <li>The policy is <em>contended</em> while a target wants more than it has and may have more (its demand, rounded
 * up, above its size, and its size below its ceiling): callers wait for connections somewhere.
 * <li>While contended, a target whose recent demand fits in its nominal share (a borrower whose load went elsewhere,
 * a lender whose blip has passed) has it as its demand, not its smoothed demand: the smoothing keeps connections a
 * target is not using only while nobody else needs them. Recent: the agents' high of their last two seconds, where
 * they say it, else the latest sample (the 10 s high, which still holds a load that ended). A busy borrower whose
 * watermark wobbles keeps its smoothed demand, so its size and status stay put; a lender's hold still keeps it from
 * lending again soon. In the benchmark a workload whose load moved to another kept what it borrowed for three periods
 * while the new busy one waited (45 s; 15 s with the latest sample, bounded by the agent's 10 s high and the
 * once-a-period rise; 5 s with the recent demand and a take-back that is not the period's rise).
 * <li>While not contended, a target whose size changed less than a period ago keeps it rather than shrink as its
 * demand decays: at most one resize per target per period. No target rises while nothing is contended, so keeping a
 * size moves nothing else; the kept sizes are checked against the nominal sum all the same and dropped if they would
 * exceed it (the nominal shares changed under them).
 * </ul>
 */
final class DemandCalm {
    private DemandCalm() {}

    static final String KEPT = "kept at %d: it changed less than a period ago (nominal %d, %s)";

    /** Whether some target wants more than it has and may have more. */
    static boolean contended(List<DemandTarget> targets, Lending lending) {
        for (DemandTarget t : targets) {
            if (t.demand() == null || t.cost() == 0) {
                continue;
            }
            int wanted = (int) Math.ceil(t.demand() - 1e-9);
            int ceiling = DemandSolver.ceiling(t.nominal(), t.maxPoolSize(), lending);
            if (wanted > t.current() && t.current() < ceiling) {
                return true;
            }
        }
        return false;
    }

    /**
     * The targets with each one's demand lowered to its recent one ({@code samples}, by id) where that is lower and fits
     * in its nominal share;
     * {@code demands} (smoothed, by id) is updated alike, so status and the next pass's smoothing start from it.
     */
    static List<DemandTarget> atTheirSample(List<DemandTarget> targets, Map<String, Double> samples,
            Map<String, Double> demands) {
        List<DemandTarget> out = new ArrayList<>(targets.size());
        for (DemandTarget t : targets) {
            Double sample = samples.get(t.id());
            if (t.demand() != null && sample != null && sample < t.demand() && sample <= t.nominal()) {
                demands.put(t.id(), sample);
                out.add(new DemandTarget(t.id(), t.weight(), t.cost(), t.nominal(), t.minPoolSize(), t.maxPoolSize(),
                        sample, t.current(), t.mayRise()));
            } else {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * The solved shares with every shrink of a target that changed less than a period ago (as its track in
     * {@code before} says) undone, unless the kept sizes would exceed the nominal sum; call only while not contended.
     */
    static List<DemandShare> keepRecentSizes(List<DemandTarget> targets, List<DemandShare> solved,
            DemandState before, long nowMs, long periodMs, Function<DemandTarget, String> demandSaid) {
        List<DemandShare> out = new ArrayList<>(solved);
        long nominal = 0;
        long given = 0;
        boolean kept = false;
        for (int i = 0; i < targets.size(); i++) {
            DemandTarget t = targets.get(i);
            DemandShare s = solved.get(i);
            DemandState.Track prev = before.of(t.id());
            long changed = prev == null ? 0 : prev.changedAtMs();
            if (s.size() < t.current() && t.current() <= s.ceiling() && changed > 0 && nowMs - changed < periodMs
                    && t.demand() != null) {
                s = new DemandShare(s.id(), s.nominal(), s.floor(), s.ceiling(), t.current(), s.demand(),
                        String.format(KEPT, t.current(), t.nominal(), "demand " + demandSaid.apply(t) + " per pod"));
                out.set(i, s);
                kept = true;
            }
            nominal = Math.addExact(nominal, Math.multiplyExact(t.cost(), t.nominal()));
            given = Math.addExact(given, Math.multiplyExact(t.cost(), s.size()));
        }
        return kept && given > nominal ? solved : List.copyOf(out);
    }
}
