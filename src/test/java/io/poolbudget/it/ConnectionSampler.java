package io.poolbudget.it;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The budget check, measured at the database: every 100 ms, PostgreSQL's own count of the
 * connections ({@code pg_stat_activity}) of the given applications (their JDBC ApplicationName).
 * Keeps the peak and what made it up, and fails a test whose apps ever held more than the budget.
 */
final class ConnectionSampler implements AutoCloseable {
    static final Duration PERIOD = Duration.ofMillis(100);
    private static final String QUERY = "select application_name, count(*) from pg_stat_activity "
            + "where application_name = any(?) group by application_name";

    private final HikariDataSource db;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        var t = new Thread(r, "connection-sampler");
        t.setDaemon(true);
        return t;
    });
    private final String[] apps;
    private int samples;
    private int failures;
    private int last;
    private int peak = -1;
    private Instant peakAt;
    private Map<String, Integer> peakBreakdown = Map.of();
    private Map<String, Integer> lastBreakdown = Map.of();

    private ConnectionSampler(String jdbcUrl, Set<String> apps) {
        var config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setUsername("app");
        config.setPassword("app");
        config.setMaximumPoolSize(1); // the sampler's own, single connection
        config.setPoolName("poolbudget-sampler");
        config.addDataSourceProperty("ApplicationName", "poolbudget-sampler");
        this.db = new HikariDataSource(config);
        this.apps = apps.toArray(String[]::new);
    }

    /** Starts sampling at once; the first sample is taken before this returns. */
    static ConnectionSampler start(Set<String> apps) {
        var sampler = new ConnectionSampler(System.getProperty("poolbudget.e2e.jdbc",
                "jdbc:postgresql://10.88.0.1:5434/app"), apps);
        sampler.sample();
        sampler.timer.scheduleAtFixedRate(sampler::sample, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        return sampler;
    }

    private void sample() {
        Map<String, Integer> byApp = new TreeMap<>();
        try (var c = db.getConnection(); var s = c.prepareStatement(QUERY)) {
            s.setArray(1, c.createArrayOf("text", apps));
            try (var rs = s.executeQuery()) {
                while (rs.next()) {
                    byApp.put(rs.getString(1), rs.getInt(2));
                }
            }
        } catch (SQLException e) {
            synchronized (this) {
                failures++;
            }
            return;
        }
        int total = byApp.values().stream().mapToInt(Integer::intValue).sum();
        synchronized (this) {
            samples++;
            last = total;
            lastBreakdown = byApp;
            if (total > peak) {
                peak = total;
                peakAt = Instant.now();
                peakBreakdown = byApp;
            }
        }
    }

    synchronized int now() {
        return last;
    }

    /** The last sample, by application name (an app with no connection is absent). */
    synchronized Map<String, Integer> lastByApp() {
        return lastBreakdown;
    }

    synchronized int peak() {
        return peak;
    }

    synchronized int samples() {
        return samples;
    }

    /** One line for the test log: the peak against the budget, when, and of what. */
    synchronized String report(String scenario, long budget) {
        return String.format(
                "E2E %-40s peak %3d of budget %3d connections (PostgreSQL's count; %d samples every %d ms, "
                        + "%d failed reads) at %s: %s",
                scenario, peak, budget, samples, PERIOD.toMillis(), failures, peakAt,
                peakBreakdown);
    }

    /** Fails when the apps' connections ever exceeded the budget, or when too few samples were read to tell. */
    synchronized void assertWithin(String scenario, long budget) {
        String report = report(scenario, budget);
        System.out.println(report);
        if (samples < 10 || failures > samples / 10) {
            throw new AssertionError("the sampler could not read pg_stat_activity often enough to judge: " + report);
        }
        if (peak > budget) {
            throw new AssertionError("over budget at the database: " + report);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        db.close();
    }
}
