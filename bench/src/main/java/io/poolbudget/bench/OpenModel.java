package io.poolbudget.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.poolbudget.load.OpenLoad;
import io.poolbudget.load.TpcbLike;
import java.time.Duration;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An open-model load on simulated pods. Each pod is what a Spring Boot pod is to the database: a
 * HikariCP pool (minimumIdle = maximumPoolSize) and a pool of request threads. Requests arrive at a
 * fixed mean rate (exponential gaps) and go to a random pod, as a Service spreads them, whatever the
 * latency: a slow database makes requests wait, never arrive less often. A request's latency runs
 * from its scheduled arrival to its commit, so waiting for a thread or a connection counts.
 */
final class OpenModel {
    record Load(String url, String user, String password, TpcbLike tpcb, int pods, double rate, int warmupSeconds,
            int seconds, int connectionTimeoutMs, int threadsPerPod) {}

    record Result(String label, int perPod, int total, double tps, double p50, double p99, long timeouts, long errors,
            long unfinished, int maxAtDb, double busyAtDb) {
        static final String HEADER = String.format(Locale.ROOT, "%-34s %8s %11s %8s %9s %9s %9s %7s %10s %9s",
                "configuration", "per pod", "connections", "TPS", "p50", "p99", "time-outs", "errors", "unfinished",
                "at the db");
        static final String CSV_HEADER = "configuration,pool_per_pod,connections,tps,p50_ms,p99_ms,acquire_timeouts,"
                + "errors,unfinished,max_connections_seen_at_db,mean_active_at_db";

        String row() {
            return String.format(Locale.ROOT, "%-34s %8d %11d %8.0f %9s %9s %9d %7d %10d %9s", label, perPod, total,
                    tps,
                    ms(p50), ms(p99), timeouts, errors, unfinished,
                    maxAtDb + String.format(Locale.ROOT, " (%.1f)", busyAtDb));
        }

        /** The same measurement under another configuration's name. */
        Result as(String otherLabel) {
            return new Result(otherLabel, perPod, total, tps, p50, p99, timeouts, errors, unfinished, maxAtDb,
                    busyAtDb);
        }

        String csv() {
            return String.format(Locale.ROOT, "\"%s\",%d,%d,%.1f,%.3f,%s,%d,%d,%d,%d,%.2f", label, perPod, total, tps,
                    p50,
                    Double.isFinite(p99) ? String.format(Locale.ROOT, "%.3f", p99) : "", timeouts, errors, unfinished,
                    maxAtDb, busyAtDb);
        }
    }

    private OpenModel() {}

    static String ms(double millis) {
        if (!Double.isFinite(millis)) {
            return "unfinished";
        }
        return millis >= 100 ? String.format(Locale.ROOT, "%.0f ms", millis)
                : String.format(Locale.ROOT, "%.2f ms", millis);
    }

    static Result run(Load load, String label, int perPod, long seed) throws Exception {
        var pools = freshPools(load, perPod);
        var threads = new ThreadPoolExecutor[load.pods()];
        for (int p = 0; p < load.pods(); p++) {
            threads[p] = new ThreadPoolExecutor(load.threadsPerPod(), load.threadsPerPod(), 0, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>());
            threads[p].prestartAllCoreThreads();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (var pool : pools) { // static pools: every connection open before the clock starts
            while (pool.getHikariPoolMXBean().getTotalConnections() < perPod && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        }
        var sampler = new DbSampler(load);
        sampler.start();
        var tally = OpenLoad.drive(pools, threads, load.tpcb()::run, load.rate(),
                Duration.ofSeconds(load.warmupSeconds()),
                Duration.ofSeconds(load.seconds()), seed, Duration.ofMillis(load.connectionTimeoutMs() + 10_000L));
        sampler.stop();
        for (var pool : pools) {
            pool.close();
        }
        return new Result(label, perPod, perPod * load.pods(), tally.tps(), tally.percentileMillis(0.50),
                tally.percentileMillis(0.99), tally.timeouts(), tally.errors(), tally.unfinished(), sampler.max.get(),
                sampler.meanActive());
    }

    /**
     * The fleet's own capacity at one pool size: every request thread of every pod sends its next request as soon as
     * the last one commits (a closed loop), so the database and the client threads run flat out, as they would under
     * a load the fleet cannot keep up with. Returns the commits per second after a warm-up.
     */
    static double saturate(Load load, int perPod) throws Exception {
        var pools = freshPools(load, perPod);
        var committed = new AtomicLong();
        var counting = new AtomicBoolean();
        var stop = new AtomicBoolean();
        var workers = new java.util.ArrayList<Thread>();
        for (var pool : pools) {
            for (int t = 0; t < load.threadsPerPod(); t++) {
                var w = new Thread(() -> {
                    while (!stop.get()) {
                        try (Connection c = pool.getConnection()) {
                            load.tpcb().run(c);
                            if (counting.get()) {
                                committed.incrementAndGet();
                            }
                        } catch (SQLException e) {
                            // a time-out or a serialisation failure: not a commit, the loop goes on
                        }
                    }
                }, "saturate");
                w.start();
                workers.add(w);
            }
        }
        Thread.sleep(TimeUnit.SECONDS.toMillis(load.warmupSeconds()));
        counting.set(true);
        long start = System.nanoTime();
        Thread.sleep(TimeUnit.SECONDS.toMillis(load.seconds()));
        long count = committed.get();
        double tps = count / ((System.nanoTime() - start) / 1e9);
        stop.set(true);
        for (var w : workers) {
            w.join();
        }
        for (var pool : pools) {
            pool.close();
        }
        return tps;
    }

    /** The tables freshened as for every measurement, then one pool of {@code perPod} per simulated pod. */
    private static HikariDataSource[] freshPools(Load load, int perPod) throws SQLException {
        try (Connection admin = DriverManager.getConnection(load.url(), load.user(), load.password())) {
            load.tpcb().freshen(admin);
        }
        var pools = new HikariDataSource[load.pods()];
        for (int p = 0; p < load.pods(); p++) {
            pools[p] = pool(load, "bench-pod-" + p, perPod);
        }
        return pools;
    }

    private static HikariDataSource pool(Load load, String name, int size) {
        var config = new HikariConfig();
        config.setPoolName(name);
        config.setJdbcUrl(load.url());
        config.setUsername(load.user());
        config.setPassword(load.password());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        config.setConnectionTimeout(load.connectionTimeoutMs());
        config.addDataSourceProperty("ApplicationName", name);
        return new HikariDataSource(config);
    }

    /** What the database itself sees, twice a second: the bench pods' connections, and how many are active. */
    static final class DbSampler {
        final AtomicInteger max = new AtomicInteger();
        private final AtomicLong activeSum = new AtomicLong();
        private final AtomicLong samples = new AtomicLong();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final Load load;
        private Thread thread;

        DbSampler(Load load) {
            this.load = load;
        }

        void start() {
            thread = new Thread(() -> {
                try (Connection c = DriverManager.getConnection(load.url(), load.user(), load.password())) {
                    var q = c.prepareStatement("SELECT count(*), count(*) FILTER (WHERE state = 'active') "
                            + "FROM pg_stat_activity WHERE application_name LIKE 'bench-pod-%'");
                    while (!stop.get()) {
                        try (ResultSet r = q.executeQuery()) {
                            r.next();
                            max.accumulateAndGet(r.getInt(1), Math::max);
                            activeSum.addAndGet(r.getInt(2));
                            samples.incrementAndGet();
                        }
                        Thread.sleep(500);
                    }
                } catch (SQLException | InterruptedException e) {
                    System.err.println("sampler: " + e.getMessage());
                }
            }, "db-sampler");
            thread.start();
        }

        void stop() throws InterruptedException {
            stop.set(true);
            thread.join();
        }

        double meanActive() {
            return samples.get() == 0 ? 0 : activeSum.get() / (double) samples.get();
        }
    }
}
