package io.poolbudget.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.poolbudget.load.OpenLoad;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** calibrate's check: the recommended budget under an open-model load on one pod ({@link OpenLoad}). */
final class OpenCheck {
    private OpenCheck() {}

    /** What the check saw: the offered rate against what was served, its latency and its failures. */
    record Result(int connections, int threads, double offered, double tps, double p50Millis, double p99Millis,
            long timeouts, long errors) {}

    static Result run(LoadSweep sweep, int connections, int threads, double rate, Duration length)
            throws InterruptedException {
        try (var pool = sweep.pool(connections, OpenLoad.CONNECTION_TIMEOUT)) {
            ExecutorService workers = Executors.newFixedThreadPool(threads);
            var tally = OpenLoad.drive(new HikariDataSource[]{pool}, new ExecutorService[]{workers}, sweep::transaction,
                    rate,
                    Duration.ofSeconds(1), length, 1, OpenLoad.CONNECTION_TIMEOUT.plusSeconds(30));
            return new Result(connections, threads, rate, tally.tps(), tally.percentileMillis(0.50),
                    tally.percentileMillis(0.99), tally.timeouts(), tally.errors());
        }
    }

}
