package io.poolbudget.cli;

import io.poolbudget.load.TpcbLike;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.poolbudget.sizing.Knee;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A closed-loop sweep of concurrency levels against a database: at each level N, a HikariCP pool of N
 * connections and N threads each running transactions back to back; throughput and latency are taken
 * after a warm-up. The built-in transaction is TPC-B-like (pgbench's default) on its own schema (a database of its
 * own on MariaDB and MySQL), created for the sweep and dropped after it; or the user's SQL, run as one transaction.
 */
final class LoadSweep implements AutoCloseable {
    static final String SCHEMA = "poolbudget_calibrate";
    private static final Duration WARM_UP = Duration.ofSeconds(1);

    record Target(String jdbcUrl, String username, String password) {}

    record Level(int connections, double tps, double p50Millis, double p99Millis, long errors) {
        Knee.Point point() {
            return new Knee.Point(connections, tps, p99Millis);
        }
    }

    private final Target target;
    private final List<String> userSql;
    private final TpcbLike tpcb;

    /** {@code userSql} null: the built-in transaction on {@code scale} branches. */
    LoadSweep(Target target, List<String> userSql, int scale) {
        this.target = target;
        this.userSql = userSql;
        this.tpcb = userSql == null ? new TpcbLike(SCHEMA, scale, io.poolbudget.observe.Dialect.of(target
                .jdbcUrl()) == io.poolbudget.observe.Dialect.MARIADB ? TpcbLike.Server.MARIADB
                        : TpcbLike.Server.POSTGRESQL)
                : null;
    }

    void setUp() throws SQLException {
        if (tpcb == null) {
            return;
        }
        try (var pool = pool(1); Connection c = pool.getConnection()) {
            tpcb.create(c);
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
            return new Level(connections, total / (length.toNanos() / 1e9), percentile(all, 0.50),
                    percentile(all, 0.99),
                    Arrays.stream(errors).sum());
        }
    }

    void transaction(Connection c) throws SQLException {
        if (tpcb != null) {
            tpcb.run(c);
            return;
        }
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            for (String sql : userSql) {
                s.execute(sql);
            }
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        }
    }

    private static double percentile(long[] sorted, double q) {
        return sorted.length == 0 ? Double.NaN
                : sorted[(int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] / 1e6;
    }

    private HikariDataSource pool(int size) {
        return pool(size, Duration.ofSeconds(10));
    }

    HikariDataSource pool(int size, Duration connectionTimeout) {
        var config = new HikariConfig();
        config.setPoolName("poolbudget-calibrate-" + size);
        io.poolbudget.observe.Dialect.of(target.jdbcUrl()).identify(config, target.jdbcUrl(), "poolbudget-calibrate");
        config.setUsername(target.username());
        config.setPassword(target.password());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        config.setConnectionTimeout(connectionTimeout.toMillis());
        return new HikariDataSource(config);
    }

    /** Drops the built-in schema (never the user's tables). */
    @Override
    public void close() {
        if (tpcb == null) {
            return;
        }
        try (var pool = pool(1); Connection c = pool.getConnection()) {
            tpcb.drop(c);
        } catch (SQLException e) {
            System.err.println(
                    "calibrate: could not drop schema " + SCHEMA + " (" + e.getMessage() + "): drop it by hand");
        }
    }

    static List<Knee.Point> points(List<Level> levels) {
        List<Knee.Point> points = new ArrayList<>();
        levels.forEach(l -> points.add(l.point()));
        return points;
    }
}
