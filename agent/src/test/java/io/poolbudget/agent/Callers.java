package io.poolbudget.agent;

import java.sql.Connection;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The tests' load: callers that each take a connection from a pool (waiting for one while the pool has none free),
 * hold it until released, then give it back.
 */
final class Callers implements AutoCloseable {
    private final ExecutorService threads;
    private final CountDownLatch release = new CountDownLatch(1);

    private Callers(int n, Callable<Connection> take) {
        threads = Executors.newFixedThreadPool(n);
        for (int i = 0; i < n; i++) {
            threads.submit(() -> {
                try (Connection c = take.call()) {
                    release.await();
                }
                return null;
            });
        }
    }

    static Callers start(int n, Callable<Connection> take) {
        return new Callers(n, take);
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
