package io.poolbudget.load;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The check a closed sweep cannot make: what an application sees at a budget. Requests arrive at a fixed mean rate
 * (exponential gaps, whatever the latency, as users arrive), go to a random pod and are served by its request threads
 * sharing its pool's connections. A request's latency runs from its arrival to its commit, so waiting for a thread or
 * a connection counts; one that waits longer than the pool's connection timeout is a time-out. {@code calibrate} runs
 * it on one pod at the recommended budget (its check); the fleet benchmark (bench/) on a fleet of simulated pods.
 */
public final class OpenLoad {
    /** How long a request waits for a connection before it is a time-out. */
    public static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(1);

    /** One transaction on a connection. */
    @FunctionalInterface
    public interface Work {
        void run(Connection c) throws SQLException;
    }

    /** Latencies of the requests that arrived in the measured window, sorted (unfinished ones last, as MAX_VALUE). */
    public record Tally(long[] sortedNanos, long timeouts, long errors, long committed, Duration window) {
        public double tps() {
            return committed / (window.toNanos() / 1e9);
        }

        public double percentileMillis(double q) {
            if (sortedNanos.length == 0) {
                return Double.NaN;
            }
            long v = sortedNanos[(int) Math.min(sortedNanos.length - 1, Math.ceil(q * sortedNanos.length) - 1)];
            return v == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : v / 1e6;
        }

        public long unfinished() {
            return Arrays.stream(sortedNanos).filter(v -> v == Long.MAX_VALUE).count();
        }
    }

    private OpenLoad() {}

    /**
     * Offers the load for {@code warmUp + length}, measures the requests that arrive after the warm-up, shuts the
     * request threads down and waits up to {@code drain} for those in flight.
     */
    public static Tally drive(HikariDataSource[] pools, ExecutorService[] threads, Work work, double rate,
            Duration warmUp, Duration length, long seed, Duration drain) throws InterruptedException {
        int capacity = (int) Math.min(Integer.MAX_VALUE - 8, rate * length.toSeconds() * 1.5 + 1000);
        long[] latency = new long[capacity];
        Arrays.fill(latency, Long.MAX_VALUE);
        var arrived = new AtomicInteger();
        var timeouts = new AtomicLong();
        var errors = new AtomicLong();
        var committed = new AtomicLong();
        long start = System.nanoTime();
        long from = start + warmUp.toNanos();
        long to = from + length.toNanos();
        var random = new Random(seed);
        double meanGap = 1e9 / rate;
        long at = start;
        while (at < to) {
            at += (long) (-Math.log(1 - random.nextDouble()) * meanGap);
            long wait = at - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            long arrival = at;
            int slot = arrival >= from && arrival < to ? arrived.getAndIncrement() : -1;
            int pod = random.nextInt(pools.length);
            var pool = pools[pod];
            threads[pod].execute(() -> {
                boolean ok = false;
                try (Connection c = pool.getConnection()) {
                    work.run(c);
                    ok = true;
                } catch (SQLTransientConnectionException e) {
                    timeouts.addAndGet(slot >= 0 ? 1 : 0);
                } catch (SQLException e) {
                    errors.addAndGet(slot >= 0 ? 1 : 0);
                }
                long done = System.nanoTime();
                if (ok && done >= from && done < to) {
                    committed.incrementAndGet();
                }
                if (slot >= 0 && slot < capacity) {
                    latency[slot] = done - arrival;
                }
            });
        }
        for (var t : threads) {
            t.shutdown();
        }
        long drainUntil = System.nanoTime() + drain.toNanos();
        for (var t : threads) {
            t.awaitTermination(Math.max(0, drainUntil - System.nanoTime()), TimeUnit.NANOSECONDS);
            t.shutdownNow();
        }
        long[] sorted = Arrays.copyOf(latency, Math.min(arrived.get(), capacity));
        Arrays.sort(sorted);
        return new Tally(sorted, timeouts.get(), errors.get(), committed.get(), length);
    }
}
