package io.poolbudget.agent;

import java.sql.Connection;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The tests' load: callers that each take a connection from a pool (waiting for one while the pool has none free),
 * hold it until released, then give it back.
 */
final class Callers implements AutoCloseable {
    private final ExecutorService threads;
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger holding = new AtomicInteger();

    private Callers(int n, Callable<Connection> take) {
        threads = Executors.newFixedThreadPool(n);
        for (int i = 0; i < n; i++) {
            threads.submit(() -> {
                try (Connection c = take.call()) {
                    holding.incrementAndGet();
                    release.await();
                }
                return null;
            });
        }
    }

    static Callers start(int n, Callable<Connection> take) {
        return new Callers(n, take);
    }

    /** How many of these callers have had their connection (a count of their own, whatever else the pool holds). */
    int holding() {
        return holding.get();
    }

    /** Lets every caller give its connection back as soon as it has one; waits until all have. */
    @Override
    public void close() throws InterruptedException {
        release.countDown();
        threads.shutdown();
        if (!threads.awaitTermination(20, TimeUnit.SECONDS)) {
            throw new AssertionError("callers still holding connections after 20 s");
        }
    }
}
