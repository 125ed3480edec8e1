package io.poolbudget.observe;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * What ghosts are to each server ({@link Dialect}): the backends of an address that a gone pod may have left (opened
 * before the address lost its pod), how one is ended, whether a refusal is a missing privilege, and what ends them on
 * the server itself.
 */
final class GhostQueries {
    /** PostgreSQL: backends of the address that started before it lost its pod. */
    static final String PG_IDS = "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' "
            + "AND pid <> pg_backend_pid() AND host(client_addr) = ? AND backend_start < ?";
    /**
     * MariaDB/MySQL: PROCESSLIST has no start of a connection; TIME is how long it has been in its state, so those of
     * the address idle since before it lost its pod (a client that is gone sends nothing).
     */
    static final String MARIADB_IDS = "SELECT p.ID FROM information_schema.PROCESSLIST p WHERE SUBSTRING_INDEX(p.HOST, "
            + "':', 1) = ? AND p.ID <> CONNECTION_ID() AND p.COMMAND <> 'Daemon' AND p.USER NOT IN ('system user', "
            + "'event_scheduler') AND p.TIME >= ?";

    private GhostQueries() {}

    /**
     * The ids of the address's backends of the observed scope (the database or account the budget covers, as the
     * count) that were open before {@code since} (as far as the server tells).
     */
    static List<Long> ids(Connection c, Dialect d, ClientScope scope, String address, Instant since, Instant now)
            throws SQLException {
        String query = (d == Dialect.POSTGRESQL ? PG_IDS : MARIADB_IDS) + d.scopeCondition(scope.scope())
                + (d == Dialect.POSTGRESQL ? " ORDER BY pid" : " ORDER BY p.ID");
        try (PreparedStatement s = c.prepareStatement(query)) {
            s.setString(1, address);
            if (d == Dialect.POSTGRESQL) {
                s.setObject(2, OffsetDateTime.ofInstant(since, ZoneOffset.UTC));
            } else {
                s.setLong(2, Math.max(1, (Duration.between(since, now).toMillis() + 999) / 1000));
            }
            if (scope.scope() != io.poolbudget.api.v1alpha1.ObserveScope.Server) {
                s.setString(3, scope.name());
            }
            List<Long> ids = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    ids.add(r.getLong(1));
                }
            }
            return ids;
        }
    }

    /** Ends one backend; false where it had ended already. */
    static boolean end(Connection c, Dialect d, long id) throws SQLException {
        if (d == Dialect.POSTGRESQL) {
            try (PreparedStatement s = c.prepareStatement("SELECT pg_terminate_backend(?)")) {
                s.setInt(1, (int) id);
                try (ResultSet r = s.executeQuery()) {
                    return r.next() && r.getBoolean(1);
                }
            }
        }
        try (var s = c.createStatement()) {
            s.execute("KILL CONNECTION " + id); // a number the server gave: nothing to quote
            return true;
        } catch (SQLException e) {
            if (e.getErrorCode() == 1094) { // unknown thread id: it ended already
                return false;
            }
            throw e;
        }
    }

    /** The account may not end another's backend. */
    static boolean refused(Dialect d, SQLException e) {
        return d == Dialect.POSTGRESQL ? "42501".equals(e.getSQLState()) : e.getErrorCode() == 1095
                || e.getErrorCode() == 1227;
    }

    /** What the monitoring account needs to end them. */
    static String grant(Dialect d, String user) {
        return d == Dialect.POSTGRESQL ? "GRANT pg_signal_backend TO " + user
                : "GRANT CONNECTION ADMIN ON *.* TO '" + user + "'@'%' (MySQL: CONNECTION_ADMIN; or SUPER)";
    }

    /** What ends such connections on the server itself. */
    static String fix(Dialect d) {
        return d == Dialect.POSTGRESQL
                ? "set tcp_keepalives_idle, tcp_keepalives_interval and tcp_keepalives_count on PostgreSQL (e.g. 60, "
                        + "10, 6) so that it notices a client that is gone within minutes, or idle_session_timeout "
                        + "(PostgreSQL 14+) to end sessions idle that long; or set spec.database.observe."
                        + "reapGhostsAfterSeconds so that the operator ends them"
                : "set wait_timeout (seconds an idle connection is kept, 28800 by default) on the server; or set "
                        + "spec.database.observe.reapGhostsAfterSeconds so that the operator ends them";
    }
}
