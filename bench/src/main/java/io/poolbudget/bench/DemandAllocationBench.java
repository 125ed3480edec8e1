package io.poolbudget.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Does the Demand allocation move a fixed budget to the workload that needs it, never over the budget (issue 55)?
 * Three workloads on one PostgreSQL, each a HikariCP pool under an open-model load whose weight moves between them in
 * phases (A busy, B busy, C busy, all busy), under three strategies: equal static weights; per phase the best static
 * split of a sweep, taken as each phase starts (an oracle that knows the phases); Demand, the operator's decisions applied through the agent's
 * resize code. Prints per phase and strategy the busy workloads' latency, time-outs, throughput, PostgreSQL's count of
 * the benchmark's connections every 100 ms, resizes per target; then the goals. Run with
 * bench/demand-allocation.sh; options are described there.
 */
public class DemandAllocationBench {
    public static void main(String[] args) throws Exception {
        var o = BenchOptions.parse(args);
        var report = new ByteArrayOutputStream();
        PrintStream tee = PoolSizesBench.tee(report);
        double perConnection = perConnection(o);
        int share = Arrays.stream(o.equalShares()).min().orElseThrow();
        if (o.busyRate() <= 0) { // busy: a load the equal share serves, queueing (--busy-load of what it serves)
            o = o.withBusyRate(10 * Math.round(o.busyLoad() * perConnection * share / 10));
        }
        var phases = o.phases();
        describe(o, tee);
        tee.printf(Locale.ROOT, "one connection serves %.0f req/s of the query here (back to back for 3 s): the equal "
                + "share of %d serves %.0f, the busy rate is %.0f %% of that%n", perConnection, share,
                perConnection * share, 100 * o.busyRate() / (perConnection * share));

        tee.println("\n== the sampler's own check: pools holding one connection more than the budget ==");
        boolean samplerSees = samplerCheck(o, tee);

        Map<String, List<PhaseResult>> byStrategy = new LinkedHashMap<>();
        List<PhaseResult> sweep = new ArrayList<>();
        for (String strategy : o.strategies()) {
            switch (strategy) {
                case "equal" -> byStrategy.put("equal weights", continuous(o, "equal weights", null, null, 0, tee));
                case "oracle" -> byStrategy.put("oracle", continuous(o, "oracle", null, splits(o, sweep, tee), 0,
                        tee));
                case "late" -> byStrategy.put("late oracle", continuous(o, "late oracle", null,
                        splits(o, sweep, tee), LATE_MS, tee));
                case "demand" -> byStrategy.put("Demand", continuous(o, "Demand", DemandAllocators.operator(o), null,
                        0, tee));
                default -> throw new IllegalArgumentException("unknown strategy " + strategy
                        + " (equal, oracle, late, demand)");
            }
        }

        tee.println("\n== per phase ==");
        tee.println("latency: of the busy workload(s), from arrival; time-outs, errors, req/s: all three workloads; PG "
                + "max: PostgreSQL's most connections of the benchmark (samples over the budget / samples); resizes per "
                + "target a,b,c; most resizes of one target in one period, resizes in the phase's last period");
        tee.println(PhaseResult.HEADER);
        for (int p = 0; p < phases.size(); p++) {
            for (var results : byStrategy.values()) {
                tee.println(results.get(p).row());
            }
        }
        boolean met = DemandGoals.print(o, byStrategy, sweep, samplerSees, tee);
        Path out = Path.of(o.out());
        Files.createDirectories(out);
        Files.write(out.resolve("demand-allocation.txt"), report.toByteArray());
        System.out.println("\nwritten to " + out.resolve("demand-allocation.txt"));
        System.exit(met ? 0 : 1);
    }

    private static void describe(BenchOptions o, PrintStream tee) throws Exception {
        tee.println("# bench/demand-allocation.sh: the budget follows the load (issue 55)");
        tee.println("# " + java.time.LocalDate.now(java.time.ZoneOffset.UTC) + ", commit " + o.commit());
        tee.println(PoolSizesBench.machine(o.url(), o.user(), o.password()));
        tee.printf(Locale.ROOT,
                """
                        variant: the benchmark's own HikariCP pools (one JVM, HikariCP %s), resized through the agent's code \
                        (io.poolbudget.agent Resizer + HikariPools, the size published in a file) by the operator's decisions \
                        (decide/ DemandStep), shrink-first with the agent's confirmation as evidence
                        workloads: a, b, c, one pool each (a target of 1 pod x 1 pool: cost 1, minPoolSize 1, weight 1), \
                        budget %d connections
                        load: open model, Poisson arrivals; busy %.0f req/s, quiet %.0f req/s; a request borrows a connection \
                        (connectionTimeout %d ms), runs `%s` and returns it; latency from arrival
                        phases: %s, %d s each (the oracle's sweep: %d s each, a fresh run per split)
                        oracle: per phase the split of the sweep with the lowest p99, taken as the phase starts (shrink-first, \
                        as every resize here); late oracle: the same splits taken 200 ms into each phase (the agent's 100 ms sample \
                        and a pass: the best an allocation that sees load through the agents can do)
                        Demand: the operator's decide/DemandStep (smoothing half-life %d periods, one rise per period), \
                        period %d s (first decision half a period in), and between periods as soon as a pool starts to starve \
                        (demand over its size, seen within the agent's 100 ms sample as the operator's watch of a pod sees it); each pool's \
                        demand from the agent's own measure (HikariCP active + threadsAwaitingConnection every 100 ms, the high \
                        watermark of the last 10 s); lendable %d %%, borrowing limit %d %%
                        p99 later: the requests that arrived a period or more into the phase
                        """,
                hikariVersion(), o.budget(),
                o.busyRate(), o.quietRate(), o.connectionTimeoutMs(), o.query(),
                String.join(", ", o.phases().stream().map(DemandFleet.Phase::name).toList()), o.phaseSeconds(),
                o.sweepSeconds(), io.poolbudget.decide.DemandStep.HALF_LIFE_PERIODS, o.periodSeconds(),
                o.lendablePercent(),
                o.borrowingLimitPercent());
    }

    static String hikariVersion() throws java.io.IOException {
        try (var in = com.zaxxer.hikari.HikariConfig.class
                .getResourceAsStream("/META-INF/maven/com.zaxxer/HikariCP/pom.properties")) {
            var p = new java.util.Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "of unknown version");
        }
    }

    /**
     * One run of every phase in turn on the same pools, from the equal shares: static there, or resized by an
     * allocator, or to a split per phase as it starts ({@code schedule}).
     */
    static List<PhaseResult> continuous(BenchOptions o, String label, DemandController.Allocator allocator,
            int[][] schedule, long lateMs, PrintStream tee) throws Exception {
        var phases = o.phases();
        awaitNoConnections(o);
        int[] start = o.equalShares();
        List<PhaseResult> results = new ArrayList<>();
        try (var fleet = new DemandFleet(o, start); var count = new ConnectionCount(o, o.budget(), phases.size())) {
            DemandController controller = allocator == null && schedule == null ? null
                    : new DemandController(fleet, o, allocator, schedule, lateMs, phases.size());
            if (controller != null) {
                controller.start();
            }
            DemandFleet.Tally[][] tally;
            try {
                tally = fleet.drive(phases, 1, p -> {
                    count.phase(p);
                    if (controller != null) {
                        controller.phase(p);
                    }
                });
            } finally {
                if (controller != null) {
                    controller.close();
                }
            }
            for (int p = 0; p < phases.size(); p++) {
                var phase = phases.get(p);
                String sizes = controller == null ? PhaseResult.sizes(start) : controller.sizes(p);
                results.add(PhaseResult.of(label, phase, sizes, tally[p], busy(o, phase), later(o), count, p,
                        controller == null ? new int[start.length] : controller.resizes(p),
                        controller == null ? 0 : controller.mostPerPeriod(p),
                        controller == null ? 0 : controller.lastPeriodWrites(p)));
            }
            if (controller != null) {
                tee.println("\n== " + label + ": the decisions, period by period (watermark and smoothed demand, "
                        + "solved sizes, sizes before -> after) ==");
                controller.log().forEach(tee::println);
            }
        }
        return results;
    }

    /**
     * The late oracle takes the oracle's splits as soon as an allocation that sees a load through the agents' watches
     * could (the agent's 100 ms sample, and a pass): the best it could do, with every decision right and instant.
     */
    static final long LATE_MS = 200;

    /** The oracle's splits, from the sweep run once (its rows into {@code sweep}) and kept for a second strategy. */
    private static int[][] splits;

    static int[][] splits(BenchOptions o, List<PhaseResult> sweep, PrintStream tee) throws Exception {
        if (splits == null) {
            splits = oracle(o, sweep, tee);
        }
        return splits;
    }

    /** The requests whose latency "p99 later" counts: those that arrived a period or more into their phase. */
    static long later(BenchOptions o) {
        return java.util.concurrent.TimeUnit.SECONDS.toNanos(o.periodSeconds());
    }

    /**
     * Per phase, every static split of the sweep (into {@code sweep}); returns per phase the one with the lowest p99 of
     * the busy workloads (the fewest time-outs first).
     */
    static int[][] oracle(BenchOptions o, List<PhaseResult> sweep, PrintStream tee) throws Exception {
        tee.println("\n== oracle: per phase, a sweep of static splits (a fresh run of the phase each) ==");
        tee.println(PhaseResult.HEADER);
        var phases = o.phases(o.sweepSeconds());
        int[][] best = new int[phases.size()][];
        for (int p = 0; p < phases.size(); p++) {
            var phase = phases.get(p);
            List<PhaseResult> rows = new ArrayList<>();
            List<int[]> splits = splits(o, p == phases.size() - 1 ? 0 : p);
            for (int[] split : splits) {
                awaitNoConnections(o);
                try (var fleet = new DemandFleet(o, split); var count = new ConnectionCount(o, o.budget(), 1)) {
                    var tally = fleet.drive(List.of(phase), 100 + p, q -> count.phase(0));
                    var row = PhaseResult.of("sweep", phase, PhaseResult.sizes(split), tally[0], busy(o, phase),
                            later(o), count, 0, new int[split.length], 0, 0);
                    rows.add(row);
                    tee.println(row.row());
                }
            }
            sweep.addAll(rows);
            var chosen = rows.stream().min(Comparator.comparingLong(PhaseResult::timeouts)
                    .thenComparingDouble(PhaseResult::p99)).orElseThrow();
            best[p] = splits.get(rows.indexOf(chosen));
        }
        return best;
    }

    /**
     * The static splits the oracle tries: the favoured workload from its equal share up to all the budget leaves after
     * every other workload's minimum of 1, in steps of half the equal share (so a larger budget keeps the sweep's
     * runs few); the rest shared equally by the others (what is left over to the first).
     */
    static List<int[]> splits(BenchOptions o, int favoured) {
        int n = DemandFleet.NAMES.length;
        int[] equal = o.equalShares();
        List<int[]> splits = new ArrayList<>();
        for (int k = equal[favoured]; k <= o.budget() - (n - 1); k += Math.max(1, equal[favoured] / 2)) {
            int[] s = new int[n];
            s[favoured] = k;
            int rest = o.budget() - k;
            int others = n - 1;
            int i = 0;
            for (int w = 0; w < n; w++) {
                if (w != favoured) {
                    s[w] = rest / others + (i++ < rest % others ? 1 : 0);
                }
            }
            splits.add(s);
        }
        return splits;
    }

    static boolean[] busy(BenchOptions o, DemandFleet.Phase phase) {
        boolean[] busy = new boolean[DemandFleet.NAMES.length];
        for (int w = 0; w < busy.length; w++) {
            busy[w] = phase.busy(w, o.busyRate());
        }
        return busy;
    }

    /**
     * The sampler's own check: pools holding the budget plus one (a's share one larger) must give samples over the
     * budget, or the count's 0 over the budget in the runs proves nothing.
     */
    static boolean samplerCheck(BenchOptions o, PrintStream tee) throws Exception {
        awaitNoConnections(o);
        int[] sizes = o.equalShares();
        sizes[0]++;
        try (var fleet = new DemandFleet(o, sizes); var count = new ConnectionCount(o, o.budget(), 1)) {
            Thread.sleep(1_000);
            count.close();
            boolean sees = count.over(0) > 0;
            tee.printf(Locale.ROOT, "pools at %s (%d connections, budget %d): PostgreSQL's count at most %d, %d of %d "
                    + "samples over the budget: %s%n", PhaseResult.sizes(sizes), sizes[0] + sizes[1] + sizes[2],
                    o.budget(), count.max(0), count.over(0), count.samples(0), sees ? "PASS (it sees them)"
                            : "FAIL (the count would not see pools over the budget)");
            return sees;
        }
    }

    /** Requests per second one connection serves when it runs the query back to back (no queueing). */
    static double perConnection(BenchOptions o) throws Exception {
        try (Connection c = DriverManager.getConnection(o.url(), o.user(), o.password()); var s = c.createStatement()) {
            for (int i = 0; i < 50; i++) {
                s.execute(o.query());
            }
            long start = System.nanoTime();
            long n = 0;
            while (System.nanoTime() - start < 3_000_000_000L) {
                s.execute(o.query());
                n++;
            }
            return n / ((System.nanoTime() - start) / 1e9);
        }
    }

    /** Until PostgreSQL no longer holds a connection of an earlier run (closed pools' backends end shortly after). */
    static void awaitNoConnections(BenchOptions o) throws Exception {
        try (Connection c = DriverManager.getConnection(o.url(), o.user(), o.password());
                var q = c.prepareStatement(
                        "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'demand-%'")) {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (System.nanoTime() < deadline) {
                try (ResultSet r = q.executeQuery()) {
                    r.next();
                    if (r.getInt(1) == 0) {
                        return;
                    }
                }
                Thread.sleep(50);
            }
            throw new IllegalStateException("connections of an earlier run are still open after 30 s");
        }
    }
}
