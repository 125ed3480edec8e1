package io.poolbudget.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * One strategy in one phase: the busy workloads' latency (every request that arrived in the phase, from its arrival),
 * time-outs and throughput of all three workloads, PostgreSQL's count of the benchmark's connections, and the resizes
 * per target (the Demand strategy's; static splits make none).
 */
record PhaseResult(String strategy, String phase, String sizes, double p50, double p99, double p99Later, long timeouts,
        long errors,
        double tps, int pgMax, long pgOver, long pgSamples, int[] resizes, int mostPerPeriod, int lastPeriodWrites) {

    static final String HEADER = String.format(Locale.ROOT, "%-16s %-9s %-12s %9s %9s %9s %9s %7s %8s %-16s %-9s %s",
            "strategy", "phase", "sizes a,b,c", "p50", "p99", "p99 later", "time-outs", "errors", "req/s",
            "PG max (over/of)",
            "resizes", "most/period, last period");

    /**
     * The tally of one phase of a run: {@code busy} names the workloads whose latency counts; {@code laterNanos}, from
     * when into the phase the "p99 later" counts (the requests that arrived once a change of phase had a period to be
     * seen and acted on).
     */
    static PhaseResult of(String strategy, DemandFleet.Phase phase, String sizes, DemandFleet.Tally[] tally,
            boolean[] busy, long laterNanos, ConnectionCount count, int p, int[] resizes, int mostPerPeriod,
            int lastPeriodWrites) {
        long[] latency = IntStream.range(0, tally.length).filter(w -> busy[w])
                .mapToObj(w -> tally[w].sorted()).flatMapToLong(Arrays::stream).sorted().toArray();
        long[] later = IntStream.range(0, tally.length).filter(w -> busy[w])
                .mapToObj(w -> tally[w].sorted(laterNanos)).flatMapToLong(Arrays::stream).sorted().toArray();
        long timeouts = Arrays.stream(tally).mapToLong(t -> t.timeouts).sum();
        long errors = Arrays.stream(tally).mapToLong(t -> t.errors).sum();
        long committed = Arrays.stream(tally).mapToLong(t -> t.committed).sum();
        return new PhaseResult(strategy, phase.name(), sizes, percentile(latency, 0.50), percentile(latency, 0.99),
                percentile(later, 0.99), timeouts, errors, committed / (double) phase.seconds(), count.max(p),
                count.over(p),
                count.samples(p), resizes.clone(), mostPerPeriod, lastPeriodWrites);
    }

    static double percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] / 1e6;
    }

    static String sizes(int[] s) {
        return Arrays.stream(s).mapToObj(Integer::toString).collect(Collectors.joining(","));
    }

    String row() {
        String resized = Arrays.stream(resizes).mapToObj(Integer::toString).collect(Collectors.joining(","));
        return String.format(Locale.ROOT, "%-16s %-9s %-12s %9s %9s %9s %9d %7d %8.0f %-16s %-9s %d, %d", strategy,
                phase, sizes, OpenModel.ms(p50), OpenModel.ms(p99), OpenModel.ms(p99Later), timeouts, errors, tps,
                pgMax + " (" + pgOver + "/" + pgSamples + ")", resized, mostPerPeriod, lastPeriodWrites);
    }

    PhaseResult as(String otherStrategy) {
        return new PhaseResult(otherStrategy, phase, sizes, p50, p99, p99Later, timeouts, errors, tps, pgMax, pgOver,
                pgSamples,
                resizes, mostPerPeriod, lastPeriodWrites);
    }
}
