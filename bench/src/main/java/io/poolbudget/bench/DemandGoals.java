package io.poolbudget.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Issue 55's goals for the benchmark, each printed PASS or FAIL with its figures. */
final class DemandGoals {
    private DemandGoals() {}

    /** True when every goal the run can judge passed (a goal whose strategies did not run is said so, not passed). */
    static boolean print(BenchOptions o, Map<String, List<PhaseResult>> byStrategy, List<PhaseResult> sweep,
            boolean samplerSees, PrintStream tee) {
        tee.println("\n== goals ==");
        var demand = byStrategy.get("Demand");
        var oracle = byStrategy.get("oracle");
        var equal = byStrategy.get("equal weights");
        boolean all = true;
        if (demand == null || oracle == null || equal == null) {
            tee.println("goals on Demand: NOT JUDGED (this run did not measure Demand, the oracle and equal weights)");
            all = false;
        } else {
            for (int p = 0; p < demand.size(); p++) {
                var d = demand.get(p);
                double ratio = d.p99() / oracle.get(p).p99();
                all &= line(tee, ratio <= 1.5, "Demand p99 <= 1.5x the oracle's, %-9s %s vs %s (%.2fx; a period into "
                        + "the phase: %s vs %s)", d.phase(), OpenModel.ms(d.p99()), OpenModel.ms(oracle.get(p).p99()),
                        ratio, OpenModel.ms(d.p99Later()), OpenModel.ms(oracle.get(p).p99Later()));
            }
            for (int p = 0; p < demand.size() - 1; p++) { // the one-busy phases
                var d = demand.get(p);
                double better = equal.get(p).p99() / d.p99();
                all &= line(tee, better >= 3, "Demand p99 >= 3x better than equal weights, %-9s %s vs %s (%.2fx; a "
                        + "period into the phase: %s vs %s)", d.phase(), OpenModel.ms(d.p99()),
                        OpenModel.ms(equal.get(p).p99()), better, OpenModel.ms(d.p99Later()),
                        OpenModel.ms(equal.get(p).p99Later()));
            }
            var late = byStrategy.get("late oracle");
            for (int p = 0; late != null && p < demand.size(); p++) { // not a goal: what a read's delay costs
                var d = demand.get(p);
                tee.printf(Locale.ROOT, "INFO Demand p99 against the late oracle's (its splits 200 ms into the phase), "
                        + "%-9s %s vs %s (%.2fx; a period into the phase: %s vs %s)%n", d.phase(),
                        OpenModel.ms(d.p99()), OpenModel.ms(late.get(p).p99()), d.p99() / late.get(p).p99(),
                        OpenModel.ms(d.p99Later()), OpenModel.ms(late.get(p).p99Later()));
            }
            long timeouts = demand.stream().mapToLong(PhaseResult::timeouts).sum();
            all &= line(tee, timeouts == 0, "Demand without time-outs: %d", timeouts);
            int most = demand.stream().mapToInt(PhaseResult::mostPerPeriod).max().orElse(0);
            all &= line(tee, most <= 1, "Demand at most one resize per target per period: at most %d", most);
            long steady = demand.stream().mapToLong(PhaseResult::lastPeriodWrites).sum();
            all &= line(tee, steady == 0, "Demand makes no writes once a phase is steady (its last %d s): %d writes",
                    o.periodSeconds(), steady);
        }
        long over = 0;
        long samples = 0;
        int max = 0;
        for (var results : byStrategy.values()) {
            for (var r : results) {
                over += r.pgOver();
                samples += r.pgSamples();
                max = Math.max(max, r.pgMax());
            }
        }
        for (var r : sweep) {
            over += r.pgOver();
            samples += r.pgSamples();
            max = Math.max(max, r.pgMax());
        }
        all &= line(tee, over == 0, "0 samples over the budget of %d (PostgreSQL's count every %d ms, every run): "
                + "%d of %d, at most %d", o.budget(), ConnectionCount.PERIOD_MS, over, samples, max);
        all &= line(tee, samplerSees, "the count sees pools over the budget (its own check above)");
        return all;
    }

    private static boolean line(PrintStream tee, boolean pass, String format, Object... args) {
        tee.println((pass ? "PASS " : "FAIL ") + String.format(Locale.ROOT, format, args));
        return pass;
    }
}
