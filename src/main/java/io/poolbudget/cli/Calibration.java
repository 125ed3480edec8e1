package io.poolbudget.cli;

import io.poolbudget.sizing.KneeEstimate;
import io.poolbudget.sizing.Usl;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One calibration: the sweep (each level measured {@code repeats} times, the levels interleaved so that a drift of
 * the machine touches all of them alike), the knee of the USL curve fitted to every measurement with its range over
 * resamples, and the open-load check of p99 at the recommended budget.
 */
final class Calibration {
    /** What calibrate was asked to do. */
    record Settings(int[] levels, int repeats, Duration perLevel, Duration limit, int requestThreads,
            int checkLoadPercent) {}

    /** What it measured: per level, every repeat; the estimate; the open check (null when skipped). */
    record Outcome(Map<Integer, List<LoadSweep.Level>> measured, KneeEstimate estimate, OpenCheck.Result check) {
        List<LoadSweep.Level> medians() {
            List<LoadSweep.Level> medians = new ArrayList<>();
            measured.forEach((n, repeats) -> {
                var sorted = repeats.stream().sorted(Comparator.comparingDouble(LoadSweep.Level::tps)).toList();
                var mid = sorted.get(sorted.size() / 2);
                medians.add(new LoadSweep.Level(n, mid.tps(), median(repeats, LoadSweep.Level::p50Millis),
                        median(repeats, LoadSweep.Level::p99Millis),
                        repeats.stream().mapToLong(LoadSweep.Level::errors).sum()));
            });
            return medians;
        }
    }

    private Calibration() {}

    static Outcome run(LoadSweep sweep, Settings settings, PrintStream out, PrintStream err)
            throws InterruptedException {
        Instant deadline = Instant.now().plus(settings.limit());
        Map<Integer, List<LoadSweep.Level>> measured = new TreeMap<>();
        out.printf(Locale.ROOT, "%6s %11s %10s %9s %9s %7s%n", "repeat", "connections", "TPS", "p50 ms", "p99 ms",
                "errors");
        sweep : for (int r = 1; r <= settings.repeats(); r++) {
            for (int n : settings.levels()) {
                if (Instant.now().plus(settings.perLevel()).isAfter(deadline)) {
                    err.printf("calibrate: time limit of %d s reached in repeat %d; the rest was not measured%n",
                            settings.limit().toSeconds(), r);
                    break sweep;
                }
                var level = sweep.run(n, settings.perLevel());
                measured.computeIfAbsent(n, k -> new ArrayList<>()).add(level);
                out.printf(Locale.ROOT, "%6d %11d %10.0f %9.2f %9.2f %7d%n", r, n, level.tps(), level.p50Millis(),
                        level.p99Millis(), level.errors());
            }
        }
        List<Usl.Sample> samples = new ArrayList<>();
        measured.forEach((n, levels) -> levels.stream().filter(l -> l.tps() > 0)
                .forEach(l -> samples.add(new Usl.Sample(n, l.tps()))));
        if (samples.isEmpty()) {
            return new Outcome(measured, null, null);
        }
        var estimate = KneeEstimate.of(samples, CalibrateCommand.TOLERANCE, 1);
        OpenCheck.Result check = null;
        if (settings.checkLoadPercent() > 0) {
            double rate = estimate.model().throughput(estimate.connections()) * settings.checkLoadPercent() / 100.0;
            check = OpenCheck.run(sweep, estimate.connections(), settings.requestThreads(), rate, settings.perLevel());
        }
        return new Outcome(measured, estimate, check);
    }

    static void report(Outcome o, Settings settings, PrintStream out) {
        var e = o.estimate();
        var m = e.model();
        var best = e.bestFitted();
        double atKnee = m.throughput(e.connections());
        out.printf(Locale.ROOT, "%nfitted (Universal Scalability Law, %d measurements): %.0f TPS per connection, "
                + "contention σ = %.4f, coherency κ = %.5f%s%n",
                o.measured().values().stream().mapToInt(List::size).sum(),
                m.lambda(), m.sigma(), m.kappa(), Double.isFinite(m.peakConnections())
                        ? String.format(Locale.ROOT, ", peak at %.1f connections", m.peakConnections()) : ", no peak");
        out.printf(Locale.ROOT, "knee: %d connections, %.0f TPS fitted (%.0f %% of the best, %.0f TPS at %d)%n",
                e.connections(), atKnee, 100 * atKnee / best.tps(), best.tps(), best.connections());
        out.printf(Locale.ROOT, "  uncertainty: %s over %d resamples of the measurements%s%n",
                e.low() == e.high() ? "the knee is " + e.low() : "knees from " + e.low() + " to " + e.high()
                        + " (the 10th to 90th percentile, and the levels within the noise of the 5 % edge)",
                KneeEstimate.ROUNDS,
                e.levelsApart(e.low(), e.high()) > 1 ? ": the measurements cannot tell these levels apart; measure "
                        + "longer (--seconds) or more often (--repeats) for a firmer knee" : "");
        if (m.stillRising(e.levels(), CalibrateCommand.TOLERANCE)) {
            out.printf(Locale.ROOT,
                    "  throughput still rises past %d connections: try higher --levels to find the knee%n",
                    Arrays.stream(e.levels()).max().orElseThrow());
        }
        if (o.check() != null) {
            var c = o.check();
            out.printf(Locale.ROOT, "open-load check at %d connections shared by %d request threads, %.0f requests/s "
                    + "(%d %% of the fitted throughput): %.0f TPS, p50 %s, p99 %s, %d time-outs%n", c.connections(),
                    c.threads(), c.offered(), settings.checkLoadPercent(), c.tps(), ms(c.p50Millis()),
                    ms(c.p99Millis()),
                    c.timeouts());
            if (c.timeouts() > 0 || c.tps() < 0.95 * c.offered()) {
                out.printf(Locale.ROOT, "  warning: at this budget the load was not kept up with (%.0f of %.0f "
                        + "requests/s, %d time-outs): budget above the knee, or expect queueing at this load%n",
                        c.tps(), c.offered(), c.timeouts());
            }
        }
    }

    static String ms(double millis) {
        return Double.isFinite(millis) ? String.format(Locale.ROOT, "%.2f ms", millis) : "unfinished";
    }

    private static double median(List<LoadSweep.Level> levels, java.util.function.ToDoubleFunction<LoadSweep.Level> f) {
        double[] v = levels.stream().mapToDouble(f).sorted().toArray();
        return v[v.length / 2];
    }
}
