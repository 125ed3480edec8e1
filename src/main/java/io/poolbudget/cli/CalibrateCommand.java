package io.poolbudget.cli;

import com.zaxxer.hikari.pool.HikariPool;
import io.poolbudget.sizing.Knee;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code calibrate}: measures where a database stops gaining throughput from more connections, on a
 * staging copy, and prints the budget to put in a PoolPolicy. It loads the database on purpose, so
 * it refuses to run without {@code --i-understand-this-loads-the-database}, and stops at its time limit.
 */
public final class CalibrateCommand {
    public static final int OK = 0;
    public static final int BAD_INPUT = 2;
    public static final int FAILED = 4;
    static final String ACK = "--i-understand-this-loads-the-database";
    static final double TOLERANCE = 0.05;

    static final String USAGE = """
            Usage: calibrate --jdbc-url URL --username USER %s [options]

            Runs a short sweep of connection counts against a STAGING database (never production:
            it runs transactions as fast as the database allows), finds the knee (the fewest
            connections within 5 %% of the best throughput) and prints the database.budget to use.

              --jdbc-url URL          jdbc:postgresql://host:port/db
              --username USER         a role that may create a schema (built-in transaction) or run --sql
              --password-env NAME     the environment variable holding the password (default PGPASSWORD)
              --sql FILE              your own transaction: its statements (separated by ;) run in one
                                      transaction per iteration, instead of the built-in TPC-B-like one
              --scale N               branches of the built-in data set, 100,000 accounts each (default 1)
              --levels 1,2,4,...      connection counts to try (default 1,2,4,8,12,16,24,32,48,64)
              --seconds N             seconds measured per level, after 1 s of warm-up (default 10)
              --time-limit N          stop trying further levels after N seconds in all (default 300)
              --cores N               the database's cores: also print connectionsPerCore
              --plot FILE.svg         write throughput and p99 latency per level as an SVG plot
              -h, --help              this text

            The built-in data set lives in schema %s, created first and dropped after.
            Exit codes: 0 done, 2 bad input or no acknowledgement, 4 the database failed.
            """.formatted(ACK, LoadSweep.SCHEMA);

    private CalibrateCommand() {}

    public static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env) {
        Map<String, String> opts = new java.util.HashMap<>(Map.of("--password-env", "PGPASSWORD", "--scale", "1",
                "--levels", "1,2,4,8,12,16,24,32,48,64", "--seconds", "10", "--time-limit", "300"));
        boolean ack = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) {
                out.print(USAGE);
                return OK;
            } else if (a.equals(ACK)) {
                ack = true;
            } else if (a.startsWith("--") && i + 1 < args.length && List.of("--jdbc-url", "--username", "--password-env",
                    "--sql", "--scale", "--levels", "--seconds", "--time-limit", "--cores", "--plot").contains(a)) {
                opts.put(a, args[++i]);
            } else {
                err.println("calibrate: unknown or incomplete argument '" + a + "'\n");
                err.print(USAGE);
                return BAD_INPUT;
            }
        }
        if (!ack) {
            err.println("calibrate: this runs transactions as fast as the database allows. Point it at a staging "
                    + "database and add " + ACK + " to go on.");
            return BAD_INPUT;
        }
        try {
            var target = new LoadSweep.Target(required(opts, "--jdbc-url"), required(opts, "--username"),
                    env.getOrDefault(opts.get("--password-env"), ""));
            if (!target.jdbcUrl().startsWith("jdbc:postgresql:")) {
                throw new IllegalArgumentException("--jdbc-url must start with jdbc:postgresql:");
            }
            List<String> sql = opts.containsKey("--sql") ? statements(Path.of(opts.get("--sql"))) : null;
            int[] levels = Arrays.stream(opts.get("--levels").split(",")).mapToInt(s -> positive("--levels", s.trim()))
                    .sorted().distinct().toArray();
            Duration perLevel = Duration.ofSeconds(positive("--seconds", opts.get("--seconds")));
            Duration limit = Duration.ofSeconds(positive("--time-limit", opts.get("--time-limit")));
            Integer cores = opts.containsKey("--cores") ? positive("--cores", opts.get("--cores")) : null;
            return sweep(target, sql, positive("--scale", opts.get("--scale")), levels, perLevel, limit, cores,
                    opts.get("--plot"), out, err);
        } catch (IllegalArgumentException e) {
            err.println("calibrate: " + e.getMessage());
            return BAD_INPUT;
        }
    }

    private static int sweep(LoadSweep.Target target, List<String> sql, int scale, int[] levels, Duration perLevel,
                             Duration limit, Integer cores, String plot, PrintStream out, PrintStream err) {
        Instant deadline = Instant.now().plus(limit);
        List<LoadSweep.Level> done = new ArrayList<>();
        try (var sweep = new LoadSweep(target, sql, scale)) {
            sweep.setUp();
            out.printf(Locale.ROOT, "%11s %10s %9s %9s %7s%n", "connections", "TPS", "p50 ms", "p99 ms", "errors");
            for (int n : levels) {
                if (Instant.now().plus(perLevel).isAfter(deadline)) {
                    err.printf("calibrate: time limit of %d s reached; levels from %d on were not tried%n",
                            limit.toSeconds(), n);
                    break;
                }
                var level = sweep.run(n, perLevel);
                done.add(level);
                out.printf(Locale.ROOT, "%11d %10.0f %9.2f %9.2f %7d%n", n, level.tps(), level.p50Millis(),
                        level.p99Millis(), level.errors());
            }
        } catch (SQLException | HikariPool.PoolInitializationException e) {
            err.println("calibrate: the database failed: " + e.getMessage());
            return FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return FAILED;
        }
        if (done.isEmpty()) {
            err.println("calibrate: no level was measured");
            return FAILED;
        }
        Knee.Point knee = Knee.of(LoadSweep.points(done), TOLERANCE);
        Knee.Point best = Knee.best(LoadSweep.points(done));
        out.printf(Locale.ROOT, "%nknee: %d connections, %.0f TPS (%.0f %% of the best, %.0f TPS at %d), p99 %.2f ms%n",
                knee.connections(), knee.tps(), 100 * knee.tps() / best.tps(), best.tps(), best.connections(),
                knee.p99Millis());
        out.printf("put in the PoolPolicy:  database: %s%s%n", databaseSnippet(knee.connections()), cores == null ? ""
                : String.format(Locale.ROOT, "   or  {cores: %d, connectionsPerCore: %d}", cores,
                Math.max(1, Math.round((float) knee.connections() / cores))));
        if (plot != null) {
            try {
                Files.writeString(Path.of(plot), SweepPlot.svg(done, knee), StandardCharsets.UTF_8);
                out.println("plot: " + plot);
            } catch (IOException e) {
                err.println("calibrate: could not write " + plot + ": " + e.getMessage());
                return FAILED;
            }
        }
        return OK;
    }

    private static List<String> statements(Path file) {
        try {
            List<String> sql = Arrays.stream(Files.readString(file).split(";")).map(String::trim)
                    .filter(s -> !s.isEmpty()).toList();
            if (sql.isEmpty()) {
                throw new IllegalArgumentException("--sql " + file + " holds no statement");
            }
            return sql;
        } catch (IOException e) {
            throw new IllegalArgumentException("--sql " + file + " cannot be read: " + e.getMessage());
        }
    }

    private static String required(Map<String, String> opts, String name) {
        String v = opts.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(name + " is required (see --help)");
        }
        return v;
    }

    private static int positive(String name, String value) {
        try {
            int v = Integer.parseInt(value);
            if (v < 1 || v > 100_000) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number from 1 to 100000, not '" + value + "'");
        }
    }

    /** The database section calibrate prints for a knee: it applies as is (cores is optional beside a budget). */
    public static String databaseSnippet(int connections) {
        return "{budget: " + connections + "}";
    }
}
