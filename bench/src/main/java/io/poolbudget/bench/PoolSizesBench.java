package io.poolbudget.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poolbudget.cli.CalibrateCommand;
import io.poolbudget.cli.PlanCommand;
import io.poolbudget.load.TpcbLike;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Do right-sized static pools make the database faster? One run, side by side, against a real
 * PostgreSQL: HikariCP's default of 10 connections per pod; the pool size `plan` computes for the
 * same pods from the formula budget (cores x 2 + spindles); the same from the budget `calibrate`
 * measured; and a sweep of pool sizes to find the best. Each configuration gets the same open-model
 * load (Poisson arrivals at a fixed rate, whatever the latency), so queueing shows. Run with
 * bench/pool-sizes.sh; options are described there.
 */
public class PoolSizesBench {
    static final String SCHEMA = "poolbudget_bench";

    public static void main(String[] a) throws Exception {
        Map<String, String> o = options(a);
        String url = o.get("--jdbc-url");
        String user = o.get("--username");
        String password = System.getenv().getOrDefault("PGPASSWORD", "");
        int pods = Integer.parseInt(o.get("--pods"));
        int cores = Integer.parseInt(o.get("--cores"));
        int scale = Integer.parseInt(o.get("--scale"));
        Path out = Path.of(o.get("--out"));
        Files.createDirectories(out);
        var report = new ByteArrayOutputStream();
        PrintStream tee = tee(report);

        tee.println(machine(url, user, password));
        tee.printf(Locale.ROOT, "%d pods of Deployment bench-api (default rolling update), TPC-B-like at scale %d%n%n",
                pods, scale);

        tee.println("== calibrate (closed loop, as `calibrate` runs it) ==");
        var cal = new ByteArrayOutputStream();
        int rc = CalibrateCommand.run(
                new String[]{"--jdbc-url", url, "--username", user, "--scale", String.valueOf(scale),
                        "--levels", o.get("--levels"), "--seconds", o.get("--calibrate-seconds"), "--cores",
                        String.valueOf(cores),
                        "--plot", out.resolve("calibrate.svg").toString(), "--i-understand-this-loads-the-database"},
                new PrintStream(cal, true, StandardCharsets.UTF_8), System.err, System.getenv());
        String calText = cal.toString(StandardCharsets.UTF_8);
        tee.print(calText);
        if (rc != 0) {
            throw new IllegalStateException("calibrate failed (exit " + rc + ")");
        }
        int calibrated = Integer.parseInt(find(calText, "database: \\{budget: (\\d+)\\}"));
        tee.println("\n== plan (the operator's sizing, from manifests) ==");
        Plan formula = plan(pods, "{name: bench-postgres, cores: " + cores + "}");
        Plan fromCalibration = plan(pods, "{name: bench-postgres, cores: " + cores + ", budget: " + calibrated + "}");
        tee.println("formula budget:    " + formula);
        tee.println("calibrated budget: " + fromCalibration);

        Map<String, Integer> configs = new LinkedHashMap<>();
        configs.put("HikariCP default", 10);
        configs.put("plan, formula budget " + formula.budget, formula.poolSize);
        configs.put("plan, calibrated budget " + fromCalibration.budget, fromCalibration.poolSize);
        for (String size : o.get("--sweep").split(",")) {
            configs.put("sweep " + size.trim() + " per pod", Integer.parseInt(size.trim()));
        }
        var tpcb = new TpcbLike(SCHEMA, scale);
        try (Connection c = DriverManager.getConnection(url, user, password)) {
            tpcb.create(c);
        }
        var csv = new StringBuilder("requests_per_second," + OpenModel.Result.CSV_HEADER + "\n");
        boolean allMet = true;
        int seed = 1;
        for (String r : o.get("--rates").split(",")) {
            double rate = Double.parseDouble(r.trim());
            tee.printf(Locale.ROOT, "%n== open model: %.0f requests/s, %s s measured after %s s warm-up, HikariCP "
                    + "connectionTimeout %s ms, %s request threads per pod ==%n", rate, o.get("--seconds"),
                    o.get("--warmup"), o.get("--connection-timeout-ms"), o.get("--threads-per-pod"));
            var load = new OpenModel.Load(url, user, password, tpcb, pods, rate, Integer.parseInt(o.get("--warmup")),
                    Integer.parseInt(o.get("--seconds")), Integer.parseInt(o.get("--connection-timeout-ms")),
                    Integer.parseInt(o.get("--threads-per-pod")));
            tee.println(OpenModel.Result.HEADER);
            List<OpenModel.Result> results = new ArrayList<>();
            for (var e : configs.entrySet()) {
                var result = OpenModel.run(load, e.getKey(), e.getValue(), seed++);
                results.add(result);
                tee.println(result.row());
                csv.append(Math.round(rate)).append(',').append(result.csv()).append('\n');
            }
            allMet &= goals(results, pods, tee);
            Files.writeString(out.resolve("pool-sizes-" + Math.round(rate) + ".svg"), BenchPlot.svg(results, rate));
        }
        try (Connection c = DriverManager.getConnection(url, user, password)) {
            tpcb.drop(c);
        }
        Files.write(out.resolve("pool-sizes.txt"), report.toByteArray());
        Files.writeString(out.resolve("pool-sizes.csv"), csv.toString());
        System.out.println(
                "\nwritten to " + out + ": pool-sizes.txt, pool-sizes.csv, pool-sizes-<rate>.svg, calibrate.svg");
        System.exit(allMet ? 0 : 1);
    }

    /** Prints the three goals for one load; true when all are met. */
    static boolean goals(List<OpenModel.Result> results, int pods, PrintStream tee) {
        var def = results.get(0);
        var cal = results.get(2);
        var best = results.subList(3, results.size()).stream().max((x, y) -> Double.compare(x.tps(), y.tps()))
                .orElseThrow();
        tee.printf(Locale.ROOT, "best of the sweep: %d per pod (%d connections), %.0f TPS%n", best.perPod(),
                best.perPod() * pods, best.tps());
        boolean tps = cal.tps() >= 0.95 * best.tps();
        boolean p99 = cal.p99() <= def.p99() / 3;
        boolean clean = cal.timeouts() == 0 && cal.errors() == 0 && cal.unfinished() == 0;
        tee.printf(Locale.ROOT, "goal: calibrated plan >= 95 %% of the best TPS: %.1f %% %s%n",
                100 * cal.tps() / best.tps(),
                tps ? "met" : "MISSED");
        tee.printf(Locale.ROOT, "goal: calibrated p99 <= 1/3 of the default's: %s vs %s (%.2fx) %s%n",
                OpenModel.ms(cal.p99()), OpenModel.ms(def.p99()), def.p99() / cal.p99(), p99 ? "met" : "MISSED");
        tee.printf(Locale.ROOT, "goal: calibrated plan without acquire time-outs or errors: %d time-outs, %d errors, "
                + "%d unfinished %s%n", cal.timeouts(), cal.errors(), cal.unfinished(), clean ? "met" : "MISSED");
        return tps && p99 && clean;
    }

    record Plan(int budget, int peakPods, int poolSize, int connections, String verdict) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%d connections -> %s: %d peak pods (surge included), pool size %d, "
                    + "%d connections at peak", budget, verdict, peakPods, poolSize, connections);
        }
    }

    /** Runs the real `plan` on a PoolPolicy and the Deployment of the simulated pods. */
    static Plan plan(int pods, String database) throws Exception {
        String yaml = """
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: bench, namespace: bench}
                spec:
                  database: %s
                  injection: {preset: spring-boot-hikari}
                  targets: [{name: bench-api}]
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: bench-api, namespace: bench}
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: bench-api}}
                  template:
                    metadata: {labels: {app: bench-api}}
                    spec: {containers: [{name: app, image: bench-api}]}
                """.formatted(database, pods);
        var json = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int rc = PlanCommand.run(new String[]{"-o", "json"},
                new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(json, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        if (rc == PlanCommand.BAD_INPUT) {
            throw new IllegalStateException("plan refused the bench's manifests: " + err);
        }
        JsonNode p = new ObjectMapper().readTree(json.toByteArray());
        p = p.isArray() ? p.get(0) : p.get("policies").get(0);
        JsonNode t = p.get("targets").get(0);
        return new Plan(p.get("budget").get("connections").asInt(), t.get("peakPods").asInt(),
                t.get("poolSize").asInt(),
                t.get("connections").asInt(), p.get("verdict").asText());
    }

    static String machine(String url, String user, String password) throws Exception {
        String cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .findFirst().map(l -> l.substring(l.indexOf(':') + 2)).orElse("unknown cpu");
        String mem = Files.readAllLines(Path.of("/proc/meminfo")).get(0).replaceAll("\\D+", "");
        String version;
        try (Connection c = DriverManager.getConnection(url, user, password);
                ResultSet r = c.createStatement()
                        .executeQuery("SELECT split_part(version(), ' on ', 1), current_setting('max_connections')")) {
            r.next();
            version = r.getString(1) + " (max_connections " + r.getString(2) + ")";
        }
        return String.format(Locale.ROOT,
                "machine: %d cpus (%s), %d GiB; %s on loopback; client and server share the cpus; "
                        + "java %s",
                Runtime.getRuntime().availableProcessors(), cpu, Long.parseLong(mem) >> 20, version,
                System.getProperty("java.version"));
    }

    static String find(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("no '" + regex + "' in:\n" + text);
        }
        return m.group(1);
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>(Map.of("--username", "app", "--pods", "2", "--cores", "2",
                "--scale", "10", "--out", "bench/results", "--levels", "1,2,3,4,6,8,12,16", "--calibrate-seconds", "5",
                "--rates", "2000,2800", "--seconds", "20", "--warmup", "5"));
        o.putAll(Map.of("--connection-timeout-ms", "2000", "--threads-per-pod", "200", "--sweep", "1,2,3,4,6,8,10"));
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!o.containsKey(args[i]) && !args[i].equals("--jdbc-url")) {
                throw new IllegalArgumentException("unknown option " + args[i]);
            }
            o.put(args[i], args[i + 1]);
        }
        if (!o.containsKey("--jdbc-url")) {
            throw new IllegalArgumentException("--jdbc-url is required");
        }
        return o;
    }

    static PrintStream tee(ByteArrayOutputStream copy) {
        return new PrintStream(new java.io.OutputStream() {
            @Override
            public void write(int b) {
                System.out.write(b);
                copy.write(b);
            }

            @Override
            public void flush() {
                System.out.flush();
            }
        }, true, StandardCharsets.UTF_8);
    }
}
