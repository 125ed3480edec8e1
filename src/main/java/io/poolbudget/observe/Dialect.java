package io.poolbudget.observe;

import com.zaxxer.hikari.HikariConfig;
import io.poolbudget.api.v1alpha1.ObserveGroupBy;
import io.poolbudget.api.v1alpha1.ObserveScope;
import io.poolbudget.status.Observation;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What observing differs in between PostgreSQL and MariaDB/MySQL: the URL, the driver's settings, the two queries
 * (the server's limit and reserve; the client connections by address and by program), what the monitoring account
 * must be allowed, and how a failure reads. Chosen by the Secret's jdbcUrl.
 */
public enum Dialect {
    /** pg_stat_activity; the monitoring role needs pg_monitor. */
    POSTGRESQL(List.of(new Server("PostgreSQL", "jdbc:postgresql:")),
            "SELECT current_setting('max_connections')::bigint, "
                    + "current_setting('superuser_reserved_connections')::bigint",
            "SELECT coalesce(host(client_addr), 'local'), coalesce(application_name, ''), count(*), "
                    + "count(*) FILTER (WHERE state <> 'idle') FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
            "datname = ?", "usename = ?", "pg_stat_activity"),
    /**
     * PROCESSLIST, and the connection attribute program_name (performance_schema) for groupBy ApplicationName. The
     * server keeps one connection beyond max_connections for an administrator, which no app may take: nothing of
     * max_connections is reserved. Names are compared byte for byte: information_schema's collation ignores case, the
     * server's names do not.
     */
    MARIADB(List.of(new Server("MariaDB", "jdbc:mariadb:"), new Server("MySQL", Dialect.MYSQL_PREFIX)),
            "SELECT @@max_connections, 0",
            "SELECT SUBSTRING_INDEX(p.HOST, ':', 1), COALESCE(a.ATTR_VALUE, ''), COUNT(*), "
                    + "SUM(p.COMMAND <> 'Sleep') FROM "
                    + "information_schema.PROCESSLIST p LEFT JOIN performance_schema.session_connect_attrs a ON "
                    + "a.PROCESSLIST_ID = p.ID AND a.ATTR_NAME = 'program_name' WHERE p.ID <> CONNECTION_ID() AND "
                    + "p.COMMAND <> 'Daemon' AND p.USER NOT IN ('system user', 'event_scheduler')",
            "CAST(p.DB AS BINARY) = CAST(? AS BINARY)", "CAST(p.USER AS BINARY) = CAST(? AS BINARY)", "PROCESSLIST");

    static final String MYSQL_PREFIX = "jdbc:mysql:";
    private final List<Server> servers;
    private final String settings;
    private final String clients;
    private final String ofDatabase;
    private final String ofUser;
    private final String view;

    /** A server a dialect reads, and how a jdbcUrl for it starts. */
    public record Server(String name, String urlPrefix) {}

    Dialect(List<Server> servers, String settings, String clients, String ofDatabase, String ofUser, String view) {
        this.servers = servers;
        this.settings = settings;
        this.clients = clients;
        this.ofDatabase = ofDatabase;
        this.ofUser = ofUser;
        this.view = view;
    }

    /** Every server observe and calibrate read, in order: the one source for the docs' lists ({@code DocsFactsTest}). */
    public static List<Server> servers() {
        return Arrays.stream(values()).flatMap(d -> d.servers.stream()).toList();
    }

    /** The dialect of a jdbcUrl (jdbc:mysql: is MariaDB's driver speaking to MySQL), or null for another database. */
    public static Dialect of(String jdbcUrl) {
        if (jdbcUrl == null) {
            return null;
        }
        for (Dialect d : values()) {
            for (Server s : d.servers) {
                if (jdbcUrl.startsWith(s.urlPrefix())) {
                    return d;
                }
            }
        }
        return null;
    }

    String settingsQuery() {
        return settings;
    }

    /**
     * The client connections by address and program, of a scope, each group's count and of it those in use: on
     * PostgreSQL a backend whose state is not idle (active, idle in transaction, ...; a state the monitoring role may
     * not see counts as not in use), on MariaDB/MySQL a thread whose COMMAND is not Sleep. In use now, at the read: not
     * the callers waiting in the apps' pools, which the database cannot see.
     * For a scope: for Database and User with one parameter, the name
     * (bound, never written into the SQL). PostgreSQL's datname is the database a session connected to; MariaDB's DB
     * the one it has selected now, null for none (such a session counts for no database).
     */
    String clientsQuery(ObserveScope scope) {
        return clients + scopeCondition(scope) + " GROUP BY 1, 2";
    }

    /**
     * The condition a query of this server's sessions adds for a scope (" AND ..." with one parameter, the name, for
     * Database and User; nothing for Server). MariaDB's names the view p (information_schema.PROCESSLIST p).
     */
    String scopeCondition(ObserveScope scope) {
        return switch (scope) {
            case Database -> " AND " + ofDatabase;
            case User -> " AND " + ofUser;
            case Server -> "";
        };
    }

    /** The driver's URL and settings for the operator's reads: named, and no read waits long. */
    public void configure(HikariConfig config, String jdbcUrl, String name) {
        identify(config, jdbcUrl, name);
        boolean pg = this == POSTGRESQL;
        config.addDataSourceProperty("connectTimeout", pg ? "5" : "5000"); // seconds; milliseconds
        config.addDataSourceProperty("socketTimeout", pg ? "10" : "10000");
    }

    /** The URL for the driver (MariaDB's for jdbc:mysql:), and the name the server shows for the client. */
    public void identify(HikariConfig config, String jdbcUrl, String name) {
        if (this == POSTGRESQL) {
            config.setJdbcUrl(jdbcUrl);
            config.addDataSourceProperty("ApplicationName", name);
        } else {
            config.setJdbcUrl(jdbcUrl.startsWith(MYSQL_PREFIX) ? "jdbc:mariadb:" + jdbcUrl.substring(
                    MYSQL_PREFIX.length()) : jdbcUrl);
            config.addDataSourceProperty("connectionAttributes", "program_name:" + name);
        }
    }

    /**
     * What the monitoring account must have for a true count, or null: on MariaDB/MySQL an account without PROCESS
     * sees only its own connections (no error, a count of nothing), and program names need performance_schema.
     */
    Observation missing(Connection c, ObserveGroupBy groupBy) throws SQLException {
        if (this != MARIADB) {
            return null;
        }
        try (ResultSet r = c.createStatement().executeQuery("SELECT COUNT(*) FROM information_schema.USER_PRIVILEGES "
                + "WHERE PRIVILEGE_TYPE IN ('PROCESS', 'SUPER')")) {
            r.next();
            if (r.getLong(1) == 0) {
                return Observation.failed("PermissionDenied", "the monitoring account lacks the PROCESS privilege, so "
                        + "it would see only its own connections: GRANT PROCESS ON *.* TO it");
            }
        }
        if (groupBy == ObserveGroupBy.ApplicationName) {
            try (ResultSet r = c.createStatement().executeQuery("SELECT @@performance_schema")) {
                r.next();
                if (r.getLong(1) == 0) {
                    return Observation.failed("QueryFailed", "performance_schema is off on this server, so connections "
                            + "cannot be told apart by program_name: start it with performance_schema=ON, or observe "
                            + "with groupBy: ClientAddress");
                }
            }
        }
        return null;
    }

    /** SQLSTATE class 28 is a refused login; class 08 and time-outs are an unreachable server. */
    Observation failure(SQLException e) {
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
                    + "Secret's username and password and " + (this == POSTGRESQL ? "the server's pg_hba.conf"
                            : "the account's host part ('user'@'%')"));
        }
        if (state.startsWith("08") || state.isEmpty()) {
            return Observation.failed("Unreachable", "cannot reach the database (" + message + "): check the Secret's "
                    + "jdbcUrl and that the operator's pods may connect to it");
        }
        if (this == POSTGRESQL && state.equals("42501")) {
            return Observation.failed("PermissionDenied", "the monitoring role may not read pg_stat_activity ("
                    + message + "): GRANT pg_monitor TO it");
        }
        if (this == MARIADB && root.getErrorCode() == 1044) {
            return Observation.failed("PermissionDenied", "the monitoring account may not use the database the "
                    + "jdbcUrl names (" + message + "): name no database in it "
                    + "(jdbc:mariadb://host:3306/: reading PROCESSLIST needs none) and the apps' database in "
                    + "spec.database.observe.database");
        }
        if (this == MARIADB && root.getErrorCode() == 1142) {
            return Observation.failed("PermissionDenied", "the monitoring account may not read performance_schema ("
                    + message + "): GRANT SELECT ON performance_schema.* TO it");
        }
        return Observation.failed("QueryFailed", "reading " + view + " failed (SQLSTATE " + state + ": " + message
                + ")");
    }
}
