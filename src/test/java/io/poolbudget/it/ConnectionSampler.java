package io.poolbudget.it;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The budget check, measured at the database: every 100 ms, PostgreSQL's own count of the
 * connections ({@code pg_stat_activity}) of the given applications (their JDBC ApplicationName), or
 * MariaDB's ({@code PROCESSLIST}) of the given accounts ({@link #startMariaDb}).
 * Keeps the peak and what made it up, and fails a test whose apps ever held more than the budget.
 */
final class ConnectionSampler implements AutoCloseable {
    static final Duration PERIOD = Duration.ofMillis(100);
    private static final String QUERY = "select application_name, coalesce(host(client_addr), 'local'), count(*) from pg_stat_activity "
            + "where application_name = any(?) group by 1, 2";
    static final String MARIADB = "jdbc:mariadb://10.88.0.1:3307/"; // no database: the monitoring account needs none
    private static final String MARIADB_QUERY = "SELECT USER, SUBSTRING_INDEX(HOST, ':', 1), COUNT(*) "
            + "FROM information_schema.PROCESSLIST "
            + "WHERE FIND_IN_SET(USER, ?) > 0 GROUP BY USER, SUBSTRING_INDEX(HOST, ':', 1)";

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
    private Map<String, Integer> peakByAddress = Map.of();
    /** Each change of the breakdown, newest last, bounded: what led up to a peak, for a failure message. */
    private final Deque<String> changes = new ArrayDeque<>();
    private Function<String, String> addressNames = a -> a;
    private Map<String, Integer> lastByAddress = Map.of();
    private List<String> changesToPeak = List.of();

    private final boolean mariaDb;

    private ConnectionSampler(String jdbcUrl, Set<String> apps) {
        this.mariaDb = jdbcUrl.startsWith("jdbc:mariadb:");
        var config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        // on MariaDB an account sees others' connections only with PROCESS: the monitoring account has it
        config.setUsername(mariaDb ? "poolbudget_monitor" : "app");
        config.setPassword(mariaDb ? "monitor" : "app");
        config.setMaximumPoolSize(1); // the sampler's own, single connection
        config.setPoolName("poolbudget-sampler");
        config.addDataSourceProperty(mariaDb ? "connectionAttributes" : "ApplicationName",
                mariaDb ? "program_name:poolbudget-sampler" : "poolbudget-sampler");
        this.db = new HikariDataSource(config);
        this.apps = apps.toArray(String[]::new);
    }

    /** Starts sampling at once; the first sample is taken before this returns. */
    static ConnectionSampler start(Set<String> apps) {
        var sampler = new ConnectionSampler(System.getProperty("poolbudget.e2e.jdbc",
                "jdbc:postgresql://10.88.0.1:5434/app"), apps);
        return sampler.started();
    }

    /** MariaDB's count of the connections of these accounts (the test MariaDB, hack/mariadb.sh --for-tests). */
    static ConnectionSampler startMariaDb(Set<String> users) {
        return new ConnectionSampler(MARIADB, users).started();
    }

    private ConnectionSampler started() {
        sample();
        timer.scheduleAtFixedRate(this::sample, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    private void sample() {
        Map<String, Integer> byApp = new TreeMap<>();
        Map<String, Integer> byAddress = new TreeMap<>();
        try (var c = db.getConnection(); var s = c.prepareStatement(mariaDb ? MARIADB_QUERY : QUERY)) {
            if (mariaDb) {
                s.setString(1, String.join(",", apps));
            } else {
                s.setArray(1, c.createArrayOf("text", apps));
            }
            try (var rs = s.executeQuery()) {
                while (rs.next()) {
                    byApp.merge(rs.getString(1), rs.getInt(3), Integer::sum);
                    byAddress.merge(rs.getString(1) + "@" + rs.getString(2), rs.getInt(3), Integer::sum);
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
            if (!byAddress.equals(lastByAddress)) {
                changes.addLast(Instant.now() + " " + total + " " + byAddress);
                if (changes.size() > 40) {
                    changes.removeFirst();
                }
                lastByAddress = byAddress;
            }
            last = total;
            lastBreakdown = byApp;
            if (total > peak) {
                peak = total;
                peakAt = Instant.now();
                peakBreakdown = byApp;
                peakByAddress = byAddress;
                changesToPeak = List.copyOf(changes); // later changes would push the lead-up out of the window
            }
        }
    }

    /** Names a client address (a pod's IP) in a failure message, say with the pod and its pool size. */
    synchronized ConnectionSampler naming(Function<String, String> names) {
        this.addressNames = names;
        return this;
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
                "E2E %-40s peak %3d of budget %3d connections (%s's count; %d samples every %d ms, "
                        + "%d failed reads) at %s: %s",
                scenario, peak, budget, mariaDb ? "MariaDB" : "PostgreSQL", samples, PERIOD.toMillis(), failures,
                peakAt,
                peakBreakdown);
    }

    /** Fails when the apps' connections ever exceeded the budget, or when too few samples were read to tell. */
    synchronized void assertWithin(String scenario, long budget) {
        String report = report(scenario, budget);
        System.out.println(report);
        if (samples < 10 || failures > samples / 10) {
            throw new AssertionError(
                    "the sampler could not read the database's count often enough to judge: " + report);
        }
        if (peak > budget) {
            var held = new StringBuilder();
            peakByAddress.forEach((appAtAddress, n) -> held.append("\n  ").append(n).append(" by ").append(appAtAddress)
                    .append(" ").append(addressNames.apply(appAtAddress.substring(appAtAddress.indexOf('@') + 1))));
            throw new AssertionError("over budget at the database: " + report + "\nheld at the peak:" + held
                    + "\nthe changes up to it:\n  " + String.join("\n  ", changesToPeak));
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
