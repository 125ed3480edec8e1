package io.poolbudget.observe;

import io.poolbudget.status.Observation;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.poolbudget.api.v1alpha1.ObserveGroupBy;
import io.poolbudget.api.v1alpha1.ObserveScope;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads a database's connection limit and reserve and its client connections by address or program (PostgreSQL's
 * pg_stat_activity, MariaDB's and MySQL's PROCESSLIST: {@link Dialect}), through one HikariCP pool of a single
 * connection per observed database. A pool is rebuilt when its credentials change and closed when its policy goes.
 * Never throws: a database that is down or refuses the login is an {@link Observation} with a
 * {@link Observation.Failure}.
 */
@jakarta.inject.Singleton
public final class DatabaseReader implements AutoCloseable {
    static final String APPLICATION_NAME = "poolbudget-operator";

    public record Credentials(String jdbcUrl, String username, String password) {}

    private record Pool(Credentials credentials, HikariDataSource dataSource) {}

    private final Map<String, Pool> pools = new ConcurrentHashMap<>();

    /** A reader of its own (tests, the calibrate command). */
    public DatabaseReader() {}

    /** The operator's: a policy's pool is closed when the policy is forgotten, and every pool on shutdown. */
    @jakarta.inject.Inject
    public DatabaseReader(io.poolbudget.memory.PolicyMemory memory) {
        memory.onForget(this::forget);
    }

    /** The policy's reader: closes its pool (its policy is gone, or observes no longer). */
    public void forget(io.poolbudget.api.v1alpha1.PoolPolicy policy) {
        forget(ObservationSource.key(policy));
    }

    /** Whether a jdbcUrl names a database the reader can observe. */
    public static boolean supports(String jdbcUrl) {
        return Dialect.of(jdbcUrl) != null;
    }

    /** The server's limit and reserve, and the client connections of {@code scope}. */
    public Observation read(String key, Credentials credentials, ObserveGroupBy groupBy, ClientScope scope) {
        Dialect dialect = Objects.requireNonNull(Dialect.of(credentials.jdbcUrl()), "an unsupported jdbcUrl");
        Pool pool = pools.compute(key, (k, old) -> {
            if (old != null && old.credentials().equals(credentials)) {
                return old;
            }
            if (old != null) {
                old.dataSource().close();
            }
            return new Pool(credentials, open(key, credentials, dialect));
        });
        try (Connection c = pool.dataSource().getConnection()) {
            return count(c, dialect, groupBy, scope);
        } catch (SQLException e) {
            return dialect.failure(e);
        }
    }

    /** One read on an open connection: the scope's name is a bound parameter of the clients query. */
    static Observation count(Connection c, Dialect dialect, ObserveGroupBy groupBy, ClientScope scope)
            throws SQLException {
        Observation missing = dialect.missing(c, groupBy);
        if (missing != null) {
            return missing;
        }
        long max;
        long reserved;
        try (ResultSet r = c.createStatement().executeQuery(dialect.settingsQuery())) {
            r.next();
            max = r.getLong(1);
            reserved = r.getLong(2);
        }
        Map<String, Long> byClient = new TreeMap<>();
        Map<String, Long> inUse = new TreeMap<>();
        try (PreparedStatement s = c.prepareStatement(dialect.clientsQuery(scope.scope()))) {
            if (scope.scope() != ObserveScope.Server) {
                s.setString(1, Objects.requireNonNull(scope.name(), "a scope without its name"));
            }
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    String client = groupBy == ObserveGroupBy.ApplicationName ? r.getString(2) : r.getString(1);
                    String named = client == null || client.isEmpty() ? "(none)" : client;
                    byClient.merge(named, r.getLong(3), Long::sum);
                    inUse.merge(named, r.getLong(4), Long::sum);
                }
            }
        }
        return Observation.of(max, reserved, byClient, scope.describe()).withInUse(inUse);
    }

    /** Work on one connection: {@link #onPool}'s. */
    @FunctionalInterface
    interface Work<T> {
        T on(Connection c) throws SQLException;
    }

    /**
     * {@code work} on the connection of the pool {@link #read} made for {@code key} (the ghosts' queries and ends,
     * {@link GhostWatch}); null where there is none.
     */
    <T> T onPool(String key, Work<T> work) throws SQLException {
        Pool pool = pools.get(key);
        if (pool == null) {
            return null;
        }
        try (Connection c = pool.dataSource().getConnection()) {
            return work.on(c);
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

    private static HikariDataSource open(String key, Credentials c, Dialect dialect) {
        var config = new HikariConfig();
        config.setPoolName("poolbudget-observe-" + key.replace('/', '-'));
        dialect.configure(config, c.jdbcUrl(), APPLICATION_NAME);
        config.setUsername(c.username());
        config.setPassword(c.password());
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(1);
        config.setReadOnly(true);
        config.setConnectionTimeout(5_000);
        config.setValidationTimeout(2_000);
        config.setInitializationFailTimeout(-1); // a database that is down now is reported on read, not thrown here
        return new HikariDataSource(config);
    }
}
