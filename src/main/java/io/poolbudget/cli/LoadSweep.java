package io.poolbudget.cli;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.poolbudget.sizing.Knee;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A closed-loop sweep of concurrency levels against a database: at each level N, a HikariCP pool of N
 * connections and N threads each running transactions back to back; throughput and latency are taken
 * after a warm-up. The built-in transaction is TPC-B-like (pgbench's default) on its own schema,
 * created for the sweep and dropped after it; or the user's SQL, run as one transaction.
 */
final class LoadSweep implements AutoCloseable {
    static final String SCHEMA = "poolbudget_calibrate";
    private static final int ACCOUNTS_PER_BRANCH = 100_000;
    private static final Duration WARM_UP = Duration.ofSeconds(1);

    record Target(String jdbcUrl, String username, String password) {}

    record Level(int connections, double tps, double p50Millis, double p99Millis, long errors) {
        Knee.Point point() { return new Knee.Point(connections, tps, p99Millis); }
    }

    private final Target target;
    private final List<String> userSql;
    private final int scale;

    /** {@code userSql} null: the built-in transaction on {@code scale} branches. */
    LoadSweep(Target target, List<String> userSql, int scale) {
        this.target = target;
        this.userSql = userSql;
        this.scale = scale;
    }

    void setUp() throws SQLException {
        if (userSql != null) {
            return;
        }
        try (var pool = pool(1); Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            s.execute("CREATE SCHEMA " + SCHEMA);
            s.execute("CREATE TABLE " + SCHEMA + ".branches (bid int PRIMARY KEY, bbalance int, filler char(88))");
            s.execute("CREATE TABLE " + SCHEMA + ".tellers (tid int PRIMARY KEY, bid int, tbalance int, filler char(84))");
            s.execute("CREATE TABLE " + SCHEMA + ".accounts (aid int PRIMARY KEY, bid int, abalance int, filler char(84))");
            s.execute("CREATE TABLE " + SCHEMA + ".history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22))");
            s.execute("INSERT INTO " + SCHEMA + ".branches SELECT b, 0, '' FROM generate_series(1, " + scale + ") b");
            s.execute("INSERT INTO " + SCHEMA + ".tellers SELECT t, (t - 1) / 10 + 1, 0, '' FROM generate_series(1, "
                    + scale * 10 + ") t");
            s.execute("INSERT INTO " + SCHEMA + ".accounts SELECT a, (a - 1) / " + ACCOUNTS_PER_BRANCH + " + 1, 0, '' "
                    + "FROM generate_series(1, " + (long) scale * ACCOUNTS_PER_BRANCH + ") a");
            s.execute("VACUUM ANALYZE " + SCHEMA + ".accounts");
        }
    }

    Level run(int connections, Duration length) throws InterruptedException {
        try (var pool = pool(connections)) {
            AtomicBoolean stop = new AtomicBoolean();
            long measureFrom = System.nanoTime() + WARM_UP.toNanos();
            long[][] latencies = new long[connections][];
            int[] counts = new int[connections];
            long[] errors = new long[connections];
            ExecutorService workers = Executors.newFixedThreadPool(connections);
            for (int w = 0; w < connections; w++) {
                int worker = w;
                latencies[w] = new long[1 << 16];
                workers.submit(() -> {
                    while (!stop.get()) {
                        long t0 = System.nanoTime();
                        try (Connection c = pool.getConnection()) {
                            transaction(c);
                        } catch (SQLException e) {
                            errors[worker]++;
                            continue;
                        }
                        long t1 = System.nanoTime();
                        if (t0 >= measureFrom) {
                            if (counts[worker] == latencies[worker].length) {
                                latencies[worker] = Arrays.copyOf(latencies[worker], counts[worker] * 2);
                            }
                            latencies[worker][counts[worker]++] = t1 - t0;
                        }
                    }
                });
            }
            Thread.sleep(WARM_UP.plus(length).toMillis());
            stop.set(true);
            workers.shutdown();
            if (!workers.awaitTermination(60, TimeUnit.SECONDS)) {
                workers.shutdownNow();
            }
            int total = Arrays.stream(counts).sum();
            long[] all = new long[total];
            int at = 0;
            for (int w = 0; w < connections; w++) {
                System.arraycopy(latencies[w], 0, all, at, counts[w]);
                at += counts[w];
            }
            Arrays.sort(all);
            return new Level(connections, total / (length.toNanos() / 1e9), percentile(all, 0.50), percentile(all, 0.99),
                    Arrays.stream(errors).sum());
        }
    }

    private void transaction(Connection c) throws SQLException {
        c.setAutoCommit(false);
        try {
            if (userSql != null) {
                try (Statement s = c.createStatement()) {
                    for (String sql : userSql) {
                        s.execute(sql);
                    }
                }
            } else {
                var r = ThreadLocalRandom.current();
                int aid = 1 + r.nextInt(scale * ACCOUNTS_PER_BRANCH);
                int tid = 1 + r.nextInt(scale * 10);
                int bid = 1 + r.nextInt(scale);
                int delta = r.nextInt(-5000, 5001);
                update(c, "UPDATE " + SCHEMA + ".accounts SET abalance = abalance + ? WHERE aid = ?", delta, aid);
                try (PreparedStatement p = c.prepareStatement("SELECT abalance FROM " + SCHEMA + ".accounts WHERE aid = ?")) {
                    p.setInt(1, aid);
                    p.executeQuery().close();
                }
                update(c, "UPDATE " + SCHEMA + ".tellers SET tbalance = tbalance + ? WHERE tid = ?", delta, tid);
                update(c, "UPDATE " + SCHEMA + ".branches SET bbalance = bbalance + ? WHERE bid = ?", delta, bid);
                try (PreparedStatement p = c.prepareStatement("INSERT INTO " + SCHEMA + ".history (tid, bid, aid, delta, "
                        + "mtime) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP)")) {
                    p.setInt(1, tid);
                    p.setInt(2, bid);
                    p.setInt(3, aid);
                    p.setInt(4, delta);
                    p.executeUpdate();
                }
            }
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        }
    }

    private static void update(Connection c, String sql, int delta, int id) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            p.setInt(1, delta);
            p.setInt(2, id);
            p.executeUpdate();
        }
    }

    private static double percentile(long[] sorted, double q) {
        return sorted.length == 0 ? Double.NaN : sorted[(int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] / 1e6;
    }

    private HikariDataSource pool(int size) {
        var config = new HikariConfig();
        config.setPoolName("poolbudget-calibrate-" + size);
        config.setJdbcUrl(target.jdbcUrl());
        config.setUsername(target.username());
        config.setPassword(target.password());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        config.setConnectionTimeout(10_000);
        config.addDataSourceProperty("ApplicationName", "poolbudget-calibrate");
        return new HikariDataSource(config);
    }

    /** Drops the built-in schema (never the user's tables). */
    @Override
    public void close() {
        if (userSql != null) {
            return;
        }
        try (var pool = pool(1); Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        } catch (SQLException e) {
            System.err.println("calibrate: could not drop schema " + SCHEMA + " (" + e.getMessage() + "): drop it by hand");
        }
    }

    static List<Knee.Point> points(List<Level> levels) {
        List<Knee.Point> points = new ArrayList<>();
        levels.forEach(l -> points.add(l.point()));
        return points;
    }
}
