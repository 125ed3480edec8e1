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
    public static final int OVERSUBSCRIBED = 3;
    public static final int FAILED = 4;
    static final String ACK = "--i-understand-this-loads-the-database";
    static final double TOLERANCE = 0.05;

    static final String USAGE = """
            Usage: calibrate --jdbc-url URL --username USER %s [options]

            Runs a sweep of connection counts against a STAGING database (never production: it runs
            transactions as fast as the database allows), each level measured several times, fits the
            Universal Scalability Law to all measurements, finds the knee (the fewest connections whose
            fitted throughput is within 5 %% of the best level's), reports its uncertainty, checks p99
            under an open load at that budget and prints the database.budget to use.

              --jdbc-url URL          jdbc:postgresql://host:port/db, or jdbc:mariadb:// / jdbc:mysql://
                                      for MariaDB and MySQL
              --username USER         a role that may create a schema (built-in transaction; on MariaDB
                                      and MySQL the database %s) or run --sql
              --password-env NAME     the environment variable holding the password (default PGPASSWORD)
              --sql FILE              your own transaction: its statements (separated by ;) run in one
                                      transaction per iteration, instead of the built-in TPC-B-like one
              --scale N               branches of the built-in data set, 100,000 accounts each (default 1)
              --levels 1,2,4,...      connection counts to try (default 1,2,4,8,12,16,24,32,48,64)
              --repeats N             times each level is measured, interleaved (default 3)
              --seconds N             seconds measured per level, after 1 s of warm-up (default 5)
              --time-limit N          stop measuring after N seconds in all (default 600)
              --check-load PCT        after the sweep, offer PCT %% of the knee's fitted throughput as an
                                      open load (requests arrive whatever the latency) and report p99
                                      and time-outs at the recommended budget; 0 skips it (default 70)
              --request-threads N     request threads sharing the budget in that check, as in an
                                      application pod (default 50)
              -f, --filename FILE     your PoolPolicy and workloads, as for plan (repeatable): says whether
                                      the plan fits the recommended budget, and what would if not
              --cores N               the database's cores: also print connectionsPerCore
              --plot FILE.svg         write throughput and p99 latency per level as an SVG plot
              -h, --help              this text

            The built-in data set lives in schema %s, created first and dropped after.
            Exit codes: 0 done, 2 bad input or no acknowledgement, 3 the plan for -f would be
            oversubscribed at the recommended budget, 4 the database failed.
            """.formatted(ACK, LoadSweep.SCHEMA, LoadSweep.SCHEMA);

    private CalibrateCommand() {}

    public static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env) {
        Map<String, String> opts = new java.util.HashMap<>(Map.of("--password-env", "PGPASSWORD", "--scale", "1",
                "--levels", "1,2,4,8,12,16,24,32,48,64", "--seconds", "5", "--time-limit", "600", "--repeats", "3",
                "--check-load", "70", "--request-threads", "50"));
        List<String> files = new ArrayList<>();
        boolean ack = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) {
                out.print(USAGE);
                return OK;
            } else if (a.equals(ACK)) {
                ack = true;
            } else if ((a.equals("-f") || a.equals("--filename")) && i + 1 < args.length) {
                files.add(args[++i]);
            } else if (a.startsWith("--") && i + 1 < args.length
                    && List.of("--jdbc-url", "--username", "--password-env",
                            "--sql", "--scale", "--levels", "--seconds", "--time-limit", "--cores", "--plot",
                            "--repeats",
                            "--check-load", "--request-threads").contains(a)) {
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
            if (!io.poolbudget.observe.DatabaseReader.supports(target.jdbcUrl())) {
                throw new IllegalArgumentException("--jdbc-url must start with jdbc:postgresql:, jdbc:mariadb: or "
                        + "jdbc:mysql:");
            }
            List<String> sql = opts.containsKey("--sql") ? statements(Path.of(opts.get("--sql"))) : null;
            int[] levels = Arrays.stream(opts.get("--levels").split(",")).mapToInt(s -> positive("--levels", s.trim()))
                    .sorted().distinct().toArray();
            var settings = new Calibration.Settings(levels, positive("--repeats", opts.get("--repeats")),
                    Duration.ofSeconds(positive("--seconds", opts.get("--seconds"))),
                    Duration.ofSeconds(positive("--time-limit", opts.get("--time-limit"))),
                    positive("--request-threads", opts.get("--request-threads")), percent(opts.get("--check-load")));
            Integer cores = opts.containsKey("--cores") ? positive("--cores", opts.get("--cores")) : null;
            // the fleet's manifests are read (and refused) before the database is loaded
            List<Manifests.Document> fleet = files.isEmpty() ? List.of() : PlanCommand.read(files, System.in);
            return calibrate(target, sql, positive("--scale", opts.get("--scale")), settings, cores, opts.get("--plot"),
                    fleet, String.join(", ", files), out, err);
        } catch (IllegalArgumentException e) {
            err.println("calibrate: " + e.getMessage());
            return BAD_INPUT;
        } catch (Manifests.BadInput e) {
            err.println("calibrate: " + e.getMessage());
            return BAD_INPUT;
        }
    }

    private static int calibrate(LoadSweep.Target target, List<String> sql, int scale, Calibration.Settings settings,
            Integer cores, String plot, List<Manifests.Document> fleet, String sources,
            PrintStream out, PrintStream err) {
        Calibration.Outcome outcome;
        try (var sweep = new LoadSweep(target, sql, scale)) {
            sweep.setUp();
            outcome = Calibration.run(sweep, settings, out, err);
        } catch (SQLException | HikariPool.PoolInitializationException e) {
            err.println("calibrate: the database failed: " + e.getMessage());
            return FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return FAILED;
        }
        if (outcome.estimate() == null) {
            err.println("calibrate: no level was measured");
            return FAILED;
        }
        Calibration.report(outcome, settings, out);
        int knee = outcome.estimate().connections();
        out.printf("put in the PoolPolicy:  database: %s%s%n", databaseSnippet(knee), cores == null ? ""
                : String.format(Locale.ROOT, "   or  {cores: %d, connectionsPerCore: %d}", cores,
                        Math.max(1, Math.round((float) knee / cores))));
        int exit = OK;
        if (!fleet.isEmpty()) {
            try {
                boolean[] fits = new boolean[1];
                FleetCheck.check(fleet, knee, err, sources, fits).forEach(out::println);
                exit = fits[0] ? OK : OVERSUBSCRIBED;
            } catch (Manifests.BadInput e) {
                err.println("calibrate: " + e.getMessage());
                return BAD_INPUT;
            }
        }
        if (plot != null) {
            try {
                Files.writeString(Path.of(plot), SweepPlot.svg(outcome.medians(), new Knee.Point(knee, 0, 0)),
                        StandardCharsets.UTF_8);
                out.println("plot: " + plot);
            } catch (IOException e) {
                err.println("calibrate: could not write " + plot + ": " + e.getMessage());
                return FAILED;
            }
        }
        return exit;
    }

    private static int percent(String value) {
        try {
            int v = Integer.parseInt(value);
            if (v < 0 || v > 100) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "--check-load must be a whole percentage from 0 to 100, not '" + value + "'");
        }
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
