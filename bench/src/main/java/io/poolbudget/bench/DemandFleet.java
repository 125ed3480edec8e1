package io.poolbudget.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.poolbudget.agent.BenchResizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The three workloads of bench/demand-allocation.sh in one JVM: one HikariCP pool each (named demand-a, demand-b,
 * demand-c; each stands for a target of one pod with one pool, cost 1 connection per unit of pool size), each resized
 * by the agent's own code ({@link BenchResizer}), each under an open-model load: Poisson arrivals at the phase's rate
 * whatever the latency, each request on a thread of its own (a cached pool: no request waits for a thread, only for a
 * connection, so the pool's waiters are the whole queue), borrowing a connection with the pool's connectionTimeout,
 * running the query and returning it. A request's latency runs from its arrival, so queueing for a connection counts;
 * it is counted in the phase it arrived in.
 */
final class DemandFleet implements AutoCloseable {
    static final String[] NAMES = {"a", "b", "c"};

    /** One phase: its name and each workload's arrival rate (requests per second). */
    record Phase(String name, double[] rates, int seconds) {
        boolean busy(int w, double busyRate) {
            return rates[w] >= busyRate;
        }
    }

    /**
     * Per phase and workload: latencies of the requests that arrived in it (ns, unfinished as MAX_VALUE), with when each
     * arrived (ns into the phase).
     */
    static final class Tally {
        private long[] latency = new long[4096];
        private long[] arrived = new long[4096];
        private int n;
        long timeouts;
        long errors;
        long committed;

        synchronized void add(long arrivedIntoPhase, long nanos, boolean timeout, boolean error) {
            if (n == latency.length) {
                latency = Arrays.copyOf(latency, n * 2);
                arrived = Arrays.copyOf(arrived, n * 2);
            }
            arrived[n] = arrivedIntoPhase;
            latency[n++] = nanos;
            timeouts += timeout ? 1 : 0;
            errors += error ? 1 : 0;
            committed += timeout || error ? 0 : 1;
        }

        synchronized long[] sorted() {
            return sorted(0);
        }

        /** The latencies of the requests that arrived {@code fromNanos} or later into the phase, sorted. */
        synchronized long[] sorted(long fromNanos) {
            long[] s = java.util.stream.IntStream.range(0, n).filter(i -> arrived[i] >= fromNanos)
                    .mapToLong(i -> latency[i]).toArray();
            Arrays.sort(s);
            return s;
        }

        synchronized int count() {
            return n;
        }
    }

    final HikariDataSource[] pools = new HikariDataSource[NAMES.length];
    final BenchResizer[] resizers = new BenchResizer[NAMES.length];
    final int[] sizes;
    private final ExecutorService requests = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "request");
        t.setDaemon(true);
        return t;
    });
    private final String query;
    private final Path dir;

    /** The pools at {@code sizes}, each full (static: every connection open before the clock starts). */
    DemandFleet(BenchOptions o, int[] sizes) throws Exception {
        this.sizes = sizes.clone();
        this.query = o.query();
        this.dir = Files.createTempDirectory("demand-allocation");
        for (int w = 0; w < NAMES.length; w++) {
            var config = new HikariConfig();
            config.setPoolName("demand-" + NAMES[w]);
            config.setJdbcUrl(o.url());
            config.setUsername(o.user());
            config.setPassword(o.password());
            config.setMaximumPoolSize(sizes[w]);
            config.setMinimumIdle(sizes[w]);
            config.setConnectionTimeout(o.connectionTimeoutMs());
            config.setRegisterMbeans(true); // as the agent's HikariCP defaults ask every pool to: how it finds them
            config.addDataSourceProperty("ApplicationName", "demand-" + NAMES[w]);
            pools[w] = new HikariDataSource(config);
            resizers[w] = new BenchResizer("demand-" + NAMES[w], dir.resolve("size-" + NAMES[w]));
            resizers[w].publish(sizes[w]);
        }
        awaitFull();
    }

    void awaitFull() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (int w = 0; w < NAMES.length; w++) {
            while (pools[w].getHikariPoolMXBean().getTotalConnections() < sizes[w] && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        }
    }

    /**
     * Offers the phases one after the other, each workload at the phase's rate, and returns the tallies
     * [phase][workload]. {@code onPhase} runs as each phase starts (the phase's index), before its first arrival.
     */
    Tally[][] drive(List<Phase> phases, long seed, java.util.function.IntConsumer onPhase)
            throws InterruptedException {
        Tally[][] tally = new Tally[phases.size()][NAMES.length];
        for (var row : tally) {
            Arrays.setAll(row, i -> new Tally());
        }
        long start = System.nanoTime();
        long[] phaseStart = new long[phases.size() + 1];
        for (int p = 0; p < phases.size(); p++) {
            phaseStart[p + 1] = phaseStart[p] + TimeUnit.SECONDS.toNanos(phases.get(p).seconds());
        }
        Thread[] arrivals = new Thread[NAMES.length];
        for (int w = 0; w < NAMES.length; w++) {
            int workload = w;
            var random = new Random(seed * 31 + w);
            arrivals[w] = new Thread(() -> {
                long at = start;
                int p = 0;
                while (p < phases.size()) {
                    at += (long) (-Math.log(1 - random.nextDouble()) * 1e9 / phases.get(p).rates()[workload]);
                    while (p < phases.size() && at - start >= phaseStart[p + 1]) {
                        p++;
                    }
                    if (p == phases.size()) {
                        break;
                    }
                    long wait = at - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    submit(workload, at, at - start - phaseStart[p], tally[p][workload]);
                }
            }, "arrivals-" + NAMES[w]);
        }
        for (var t : arrivals) {
            t.start();
        }
        for (int p = 0; p < phases.size(); p++) {
            onPhase.accept(p);
            long until = start + phaseStart[p + 1];
            while (System.nanoTime() < until) {
                LockSupport.parkNanos(Math.min(until - System.nanoTime(), 50_000_000L));
            }
        }
        for (var t : arrivals) {
            t.join();
        }
        requests.shutdown();
        requests.awaitTermination(10, TimeUnit.SECONDS);
        return tally;
    }

    private void submit(int w, long arrival, long intoPhase, Tally tally) {
        var pool = pools[w];
        requests.execute(() -> {
            boolean timeout = false;
            boolean error = false;
            try (Connection c = pool.getConnection(); var s = c.createStatement()) {
                s.execute(query);
            } catch (SQLTransientConnectionException e) {
                timeout = true;
            } catch (SQLException e) {
                error = true;
            }
            tally.add(intoPhase, System.nanoTime() - arrival, timeout, error);
        });
    }

    @Override
    public void close() {
        requests.shutdownNow();
        for (var p : pools) {
            if (p != null) {
                p.close();
            }
        }
    }
}
