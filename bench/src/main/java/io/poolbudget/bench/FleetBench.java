package io.poolbudget.bench;

import io.poolbudget.cli.CalibrateCommand;
import io.poolbudget.load.TpcbLike;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Right-sizing on fleets: 2, 10 and 20 simulated pods (HikariCP's default is Σ 20, 100, 200 connections), each with
 * the request threads of a real app, at 50, 70 and 90 % of the fleet's own capacity: the most TPS any of the pool
 * sizes gives when all the fleet's request threads send back to back. Every configuration runs three times, the
 * median and the spread printed. Configurations: HikariCP's default of 10 per pod, the pool size `plan` gives the
 * fleet from calibrate's budget (what PoolBudget would write; at its minimum of 1 per pod when the fleet is too large
 * for the budget), and static sizes per pod for the best static configuration. Run with bench/fleet.sh.
 */
public class FleetBench {
    record Point(String label, int perPod, List<OpenModel.Result> runs) {
        double median(java.util.function.ToDoubleFunction<OpenModel.Result> f) {
            double[] v = runs.stream().mapToDouble(f).sorted().toArray();
            return v[v.length / 2];
        }

        double min(java.util.function.ToDoubleFunction<OpenModel.Result> f) {
            return runs.stream().mapToDouble(f).min().orElseThrow();
        }

        double max(java.util.function.ToDoubleFunction<OpenModel.Result> f) {
            return runs.stream().mapToDouble(f).max().orElseThrow();
        }

        long timeouts() {
            return runs.stream().mapToLong(r -> r.timeouts() + r.unfinished()).sum();
        }
    }

    public static void main(String[] a) throws Exception {
        Map<String, String> o = new LinkedHashMap<>(
                Map.of("--username", "app", "--scale", "10", "--out", "bench/results",
                        "--fleets", "2,10,20", "--loads", "50,70,90", "--runs", "3", "--seconds", "8", "--warmup", "2",
                        "--threads-per-pod", "50"));
        o.putAll(Map.of("--static", "1,2,3,4", "--connection-timeout-ms", "2000", "--levels", "1,2,4,8,16",
                "--capacity-seconds", "6"));
        for (int i = 0; i + 1 < a.length; i += 2) {
            o.put(a[i], a[i + 1]);
        }
        String url = o.get("--jdbc-url");
        String user = o.get("--username");
        String password = System.getenv().getOrDefault("PGPASSWORD", "");
        Path out = Path.of(o.get("--out"));
        Files.createDirectories(out);
        var report = new ByteArrayOutputStream();
        PrintStream tee = PoolSizesBench.tee(report);
        tee.println(PoolSizesBench.machine(url, user, password));

        var cal = new ByteArrayOutputStream();
        int rc = CalibrateCommand.run(new String[]{"--jdbc-url", url, "--username", user, "--scale", o.get("--scale"),
                "--levels", o.get("--levels"), "--seconds", "4", "--repeats", "3", "--check-load", "0",
                "--i-understand-this-loads-the-database"}, new PrintStream(cal, true, StandardCharsets.UTF_8),
                System.err,
                System.getenv());
        String calText = cal.toString(StandardCharsets.UTF_8);
        tee.print("== calibrate ==\n" + calText);
        if (rc != 0) {
            throw new IllegalStateException("calibrate failed (exit " + rc + ")");
        }
        int budget = Integer.parseInt(PoolSizesBench.find(calText, "database: \\{budget: (\\d+)\\}"));
        double capacity = Double.parseDouble(PoolSizesBench.find(calText, "of the best, (\\d+) TPS at"));
        tee.printf(Locale.ROOT, "capacity (the fitted best): %.0f TPS; calibrated budget %d%n", capacity, budget);

        var tpcb = new TpcbLike(PoolSizesBench.SCHEMA, Integer.parseInt(o.get("--scale")));
        try (Connection c = DriverManager.getConnection(url, user, password)) {
            tpcb.create(c);
        }
        var csv = new StringBuilder("pods,load_percent,requests_per_second," + OpenModel.Result.CSV_HEADER + "\n");
        int runs = Integer.parseInt(o.get("--runs"));
        long seed = 1;
        List<String> verdicts = new ArrayList<>();
        for (String f : o.get("--fleets").split(",")) {
            int pods = Integer.parseInt(f.trim());
            var plan = PoolSizesBench.plan(pods, "{budget: " + budget + "}");
            Map<String, Integer> configs = new LinkedHashMap<>();
            configs.put("HikariCP default", 10);
            configs.put("plan, budget " + budget + " (" + plan.verdict().toLowerCase(Locale.ROOT) + ")",
                    plan.poolSize());
            for (String s : o.get("--static").split(",")) {
                configs.put("static " + s.trim() + " per pod", Integer.parseInt(s.trim()));
            }
            double fleetCapacity = fleetCapacity(pods, configs, url, user, password, tpcb, o, tee);
            for (String l : o.get("--loads").split(",")) {
                int percent = Integer.parseInt(l.trim());
                double rate = fleetCapacity * percent / 100;
                tee.printf(Locale.ROOT,
                        "%n== %d pods x %s request threads, %d %% of the fleet's capacity = %.0f requests/s, "
                                + "%d runs of %s s ==%n",
                        pods, o.get("--threads-per-pod"), percent, rate, runs, o.get("--seconds"));
                var load = new OpenModel.Load(url, user, password, tpcb, pods, rate,
                        Integer.parseInt(o.get("--warmup")),
                        Integer.parseInt(o.get("--seconds")), Integer.parseInt(o.get("--connection-timeout-ms")),
                        Integer.parseInt(o.get("--threads-per-pod")));
                List<Point> points = new ArrayList<>();
                for (var e : configs.entrySet()) {
                    points.add(new Point(e.getKey(), e.getValue(), new ArrayList<>()));
                }
                // The plan's pool size is often one of the static sizes: the same configuration, so it is measured
                // once and both rows show those runs (measuring it twice would only compare the runs' noise).
                Point planned = points.get(1);
                Point same = points.subList(2, points.size()).stream().filter(p -> p.perPod() == planned.perPod())
                        .findFirst().orElse(null);
                Point planRow = same == null ? planned
                        : new Point(planned.label() + " = " + same.label(), planned.perPod(), same.runs());
                points.set(1, planRow);
                for (int r = 1; r <= runs; r++) { // runs interleaved, so a drift touches every configuration alike
                    for (Point p : points) {
                        if (p == planRow && same != null) {
                            continue;
                        }
                        var result = OpenModel.run(load, p.label(), p.perPod(), seed++);
                        p.runs().add(result);
                        String row = pods + "," + percent + "," + Math.round(rate) + ",";
                        csv.append(row).append(result.csv()).append('\n');
                        if (p == same) {
                            csv.append(row).append(result.as(planRow.label()).csv()).append('\n');
                        }
                    }
                }
                tee.printf(Locale.ROOT, "%-52s %7s %11s %20s %26s %9s%n", "configuration", "per pod", "connections",
                        "TPS median (range)", "p99 median (range)", "time-outs");
                for (Point p : points) {
                    tee.printf(Locale.ROOT, "%-52s %7d %11d %20s %26s %9d%n", p.label(), p.perPod(), p.perPod() * pods,
                            String.format(Locale.ROOT, "%.0f (%.0f-%.0f)", p.median(OpenModel.Result::tps),
                                    p.min(OpenModel.Result::tps), p.max(OpenModel.Result::tps)),
                            OpenModel.ms(p.median(OpenModel.Result::p99)) + " ("
                                    + OpenModel.ms(p.min(OpenModel.Result::p99))
                                    + "-" + OpenModel.ms(p.max(OpenModel.Result::p99)) + ")",
                            p.timeouts());
                }
                verdicts.add(goals(pods, percent, points, tee));
            }
        }
        try (Connection c = DriverManager.getConnection(url, user, password)) {
            tpcb.drop(c);
        }
        tee.println("\n== goals, by the medians of " + runs + " runs ==");
        verdicts.forEach(tee::println);
        Files.write(out.resolve("fleet.txt"), report.toByteArray());
        Files.writeString(out.resolve("fleet.csv"), csv.toString());
        System.out.println("\nwritten to " + out + ": fleet.txt, fleet.csv");
    }

    /**
     * What this fleet can do at most: each pool size saturated by all the fleet's request threads (a closed loop), the
     * best of them. Calibrate's capacity comes from a few client threads; a fleet's hundreds of request threads share
     * the machine's cores with the database, so the fleet's loads are percentages of its own measured capacity.
     */
    static double fleetCapacity(int pods, Map<String, Integer> configs, String url, String user, String password,
            TpcbLike tpcb, Map<String, String> o, PrintStream tee) throws Exception {
        var load = new OpenModel.Load(url, user, password, tpcb, pods, 1, Integer.parseInt(o.get("--warmup")),
                Integer.parseInt(o.get("--capacity-seconds")), Integer.parseInt(o.get("--connection-timeout-ms")),
                Integer.parseInt(o.get("--threads-per-pod")));
        tee.printf(Locale.ROOT,
                "%n== %d pods x %s request threads, saturated (every thread sends its next request when "
                        + "the last commits), %s s per pool size ==%n",
                pods, o.get("--threads-per-pod"), o.get("--capacity-seconds"));
        double best = 0;
        for (int perPod : new java.util.TreeSet<>(configs.values())) {
            double tps = OpenModel.saturate(load, perPod);
            tee.printf(Locale.ROOT, "  %2d per pod (%3d connections): %6.0f TPS%n", perPod, perPod * pods, tps);
            best = Math.max(best, tps);
        }
        tee.printf(Locale.ROOT, "the fleet's capacity (the best of these): %.0f TPS%n", best);
        return best;
    }

    /** The goals for one fleet and load, from the medians: one line. */
    static String goals(int pods, int percent, List<Point> points, PrintStream tee) {
        Point def = points.get(0);
        Point plan = points.get(1);
        Point best = points.subList(2, points.size()).stream()
                .max((x, y) -> Double.compare(x.median(OpenModel.Result::tps) - x.timeouts(),
                        y.median(OpenModel.Result::tps) - y.timeouts()))
                .orElseThrow();
        Point lowestP99 = points.subList(2, points.size()).stream()
                .min((x, y) -> Double.compare(x.median(OpenModel.Result::p99), y.median(OpenModel.Result::p99)))
                .orElseThrow();
        double tps = plan.median(OpenModel.Result::tps) / best.median(OpenModel.Result::tps);
        double p99 = plan.median(OpenModel.Result::p99) / def.median(OpenModel.Result::p99);
        double vsBest = plan.median(OpenModel.Result::p99) / lowestP99.median(OpenModel.Result::p99);
        return String.format(Locale.ROOT,
                "%2d pods at %d %%: plan %d per pod: %.1f %% of the best static TPS (%s), p99 "
                        + "%.2fx the default's (goal <= 0.33 at 70/90 %%), %.2fx the best static p99 (%s; goal <= 2), "
                        + "%d time-outs",
                pods, percent, plan.perPod(), 100 * tps, best.label(), p99, vsBest,
                lowestP99.label(), plan.timeouts());
    }
}
