package io.poolbudget.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * PostgreSQL's own count of the benchmark's connections (pg_stat_activity, application_name demand-*), every 100 ms on
 * a connection of its own (not counted: another application name). Per phase: the most seen, the samples taken, and
 * the samples over the budget, which must be none.
 */
final class ConnectionCount implements AutoCloseable {
    static final long PERIOD_MS = 100;
    private final int budget;
    private final int[] max;
    private final long[] samples;
    private final long[] over;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread;
    private volatile int phase;
    private volatile String failure;

    ConnectionCount(BenchOptions o, int budget, int phases) throws SQLException {
        this.budget = budget;
        this.max = new int[phases];
        this.samples = new long[phases];
        this.over = new long[phases];
        Connection c = DriverManager.getConnection(o.url(), o.user(), o.password());
        thread = new Thread(() -> {
            try (c;
                    var q = c.prepareStatement(
                            "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'demand-%'")) {
                while (!stop.get()) {
                    try (ResultSet r = q.executeQuery()) {
                        r.next();
                        record(r.getInt(1));
                    }
                    Thread.sleep(PERIOD_MS);
                }
            } catch (SQLException | InterruptedException e) {
                failure = e.toString();
            }
        }, "connection-count");
        thread.setDaemon(true);
        thread.start();
    }

    private synchronized void record(int count) {
        int p = phase;
        max[p] = Math.max(max[p], count);
        samples[p]++;
        over[p] += count > budget ? 1 : 0;
    }

    void phase(int p) {
        phase = p;
    }

    synchronized int max(int p) {
        return max[p];
    }

    synchronized long samples(int p) {
        return samples[p];
    }

    synchronized long over(int p) {
        return over[p];
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        thread.join();
        if (failure != null) {
            throw new IllegalStateException("the connection count stopped: " + failure);
        }
    }
}
