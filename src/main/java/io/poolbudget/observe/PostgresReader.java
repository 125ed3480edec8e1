package io.poolbudget.observe;

import io.poolbudget.status.Observation;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.poolbudget.api.v1alpha1.ObserveGroupBy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads max_connections, superuser_reserved_connections and the client connections of
 * pg_stat_activity, through one HikariCP pool of a single connection per observed database. A pool
 * is rebuilt when its credentials change and closed when its policy goes. Never throws: a database
 * that is down or refuses the login is an {@link Observation} with a {@link Observation.Failure}.
 */
@jakarta.inject.Singleton
public final class PostgresReader implements AutoCloseable {
    static final String APPLICATION_NAME = "poolbudget-operator";
    private static final String SETTINGS = "SELECT current_setting('max_connections')::bigint, "
            + "current_setting('superuser_reserved_connections')::bigint";
    private static final String CLIENTS = "SELECT coalesce(host(client_addr), 'local'), coalesce(application_name, ''), "
            + "count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() GROUP BY 1, 2";

    public record Credentials(String jdbcUrl, String username, String password) {}

    private record Pool(Credentials credentials, HikariDataSource dataSource) {}

    private final Map<String, Pool> pools = new ConcurrentHashMap<>();

    /** A reader of its own (tests, the calibrate command). */
    public PostgresReader() {}

    /** The operator's: a policy's pool is closed when the policy is forgotten, and every pool on shutdown. */
    @jakarta.inject.Inject
    public PostgresReader(io.poolbudget.memory.PolicyMemory memory) {
        memory.onForget(this::forget);
    }

    /** The policy's reader: closes its pool (its policy is gone, or observes no longer). */
    public void forget(io.poolbudget.api.v1alpha1.PoolPolicy policy) {
        forget(ObservationSource.key(policy));
    }

    public Observation read(String key, Credentials credentials, ObserveGroupBy groupBy) {
        Pool pool = pools.compute(key, (k, old) -> {
            if (old != null && old.credentials().equals(credentials)) {
                return old;
            }
            if (old != null) {
                old.dataSource().close();
            }
            return new Pool(credentials, open(key, credentials));
        });
        try (Connection c = pool.dataSource().getConnection()) {
            long max;
            long reserved;
            try (ResultSet r = c.createStatement().executeQuery(SETTINGS)) {
                r.next();
                max = r.getLong(1);
                reserved = r.getLong(2);
            }
            Map<String, Long> byClient = new TreeMap<>();
            try (ResultSet r = c.createStatement().executeQuery(CLIENTS)) {
                while (r.next()) {
                    String client = groupBy == ObserveGroupBy.ApplicationName ? r.getString(2) : r.getString(1);
                    byClient.merge(client == null || client.isEmpty() ? "(none)" : client, r.getLong(3), Long::sum);
                }
            }
            return new Observation(max, reserved, byClient, null);
        } catch (SQLException e) {
            return failure(e);
        }
    }

    public void forget(String key) {
        Pool pool = pools.remove(key);
        if (pool != null) {
            pool.dataSource().close();
        }
    }

    @jakarta.annotation.PreDestroy
    @Override
    public void close() {
        pools.keySet().forEach(this::forget);
    }

    private static HikariDataSource open(String key, Credentials c) {
        var config = new HikariConfig();
        config.setPoolName("poolbudget-observe-" + key.replace('/', '-'));
        config.setJdbcUrl(c.jdbcUrl());
        config.setUsername(c.username());
        config.setPassword(c.password());
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(1);
        config.setReadOnly(true);
        config.setConnectionTimeout(5_000);
        config.setValidationTimeout(2_000);
        config.setInitializationFailTimeout(-1); // a database that is down now is reported on read, not thrown here
        config.addDataSourceProperty("ApplicationName", APPLICATION_NAME);
        config.addDataSourceProperty("connectTimeout", "5");
        config.addDataSourceProperty("socketTimeout", "10");
        return new HikariDataSource(config);
    }

    /** SQLSTATE class 28 is a refused login; class 08 and time-outs are an unreachable server. */
    static Observation failure(SQLException e) {
        // HikariCP's time-out carries the driver's error as its cause: report the driver's words
        SQLException root = e;
        while (root.getCause() instanceof SQLException cause) {
            root = cause;
        }
        String state = Objects.requireNonNullElse(root.getSQLState() != null ? root.getSQLState() : e.getSQLState(),
                "");
        String message = root.getMessage() == null ? e.getMessage() : root.getMessage();
        if (state.startsWith("28")) {
            return Observation.failed("LoginFailed", "the database refused the login (" + message + "): check the "
                    + "Secret's username and password and the server's pg_hba.conf");
        }
        if (state.startsWith("08") || state.isEmpty()) {
            return Observation.failed("Unreachable", "cannot reach the database (" + message + "): check the Secret's "
                    + "jdbcUrl and that the operator's pods may connect to it");
        }
        if (state.equals("42501")) {
            return Observation.failed("PermissionDenied",
                    "the monitoring role may not read pg_stat_activity (" + message
                            + "): GRANT pg_monitor TO it");
        }
        return Observation.failed("QueryFailed",
                "reading pg_stat_activity failed (SQLSTATE " + state + ": " + message + ")");
    }
}
