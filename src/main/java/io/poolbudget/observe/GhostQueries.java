package io.poolbudget.observe;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What ghosts are to each server ({@link Dialect}): the backends of an address that a gone pod may have left (opened
 * before the operator last saw the pod live), how they are ended, whether a refusal is a missing privilege, and what
 * ends them on the server itself. The cut-off is bound as an age (seconds before the server's own clock, rounded up so
 * that it is never later than the pod was seen): the operator's clock and the server's are never compared.
 */
final class GhostQueries {
    /**
     * PostgreSQL: client backends of the address, of roles other than superusers (pg_signal_backend cannot end theirs,
     * and an app's is not one), started more than ? seconds before the server's clock now.
     */
    static final String PG_WHERE = " FROM pg_stat_activity WHERE backend_type = 'client backend' "
            + "AND pid <> pg_backend_pid() AND host(client_addr) = ? "
            + "AND backend_start < clock_timestamp() - make_interval(secs => ?) "
            + "AND NOT COALESCE((SELECT r.rolsuper FROM pg_roles r WHERE r.oid = usesysid), false)";
    static final String PG_IDS = "SELECT pid" + PG_WHERE;
    /** PostgreSQL: the same backends ended by the statement that selects them, the conditions checked as it ends each. */
    static final String PG_END = "SELECT pid, pg_terminate_backend(pid)" + PG_WHERE;
    /**
     * MariaDB/MySQL: PROCESSLIST has no start of a connection; TIME is how long it has been in its state, so those of
     * the address idle for at least ? seconds (a client that is gone sends nothing).
     */
    static final String MARIADB_IDS = "SELECT p.ID FROM information_schema.PROCESSLIST p WHERE SUBSTRING_INDEX(p.HOST, "
            + "':', 1) = ? AND p.ID <> CONNECTION_ID() AND p.COMMAND <> 'Daemon' AND p.USER NOT IN ('system user', "
            + "'event_scheduler') AND p.TIME >= ?";

    /** What a reap came to: how many ended, and the first refusal (missing privilege) or other failure, if any. */
    record Reaped(int ended, SQLException refusal, SQLException failure) {}

    private GhostQueries() {}

    /** Whole seconds from {@code lastLive} to {@code now}, rounded up (at least 1): the age a ghost is older than. */
    static long age(Instant lastLive, Instant now) {
        return Math.max(1, (Duration.between(lastLive, now).toMillis() + 999) / 1000);
    }

    /**
     * The ids of the address's backends of the observed scope (the database or account the budget covers, as the
     * count) opened at least {@code ageSeconds} ago by the server's clock (as far as the server tells).
     */
    static List<Long> ids(Connection c, Dialect d, ClientScope scope, String address, long ageSeconds)
            throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement s = prepare(c, d, d == Dialect.POSTGRESQL ? PG_IDS : MARIADB_IDS, scope, address,
                ageSeconds); ResultSet r = s.executeQuery()) {
            while (r.next()) {
                ids.add(r.getLong(1));
            }
        }
        return ids;
    }

    /**
     * Ends the backends {@link #ids} selects. PostgreSQL: in one statement that selects and ends them, so that a
     * backend is ended only if it still meets the conditions. MariaDB/MySQL: each by KILL CONNECTION, a failure of
     * one (refused, or any other) not keeping the others from being ended.
     */
    static Reaped end(Connection c, Dialect d, ClientScope scope, String address, long ageSeconds)
            throws SQLException {
        if (d == Dialect.POSTGRESQL) {
            int ended = 0;
            try (PreparedStatement s = prepare(c, d, PG_END, scope, address, ageSeconds);
                    ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    ended += r.getBoolean(2) ? 1 : 0;
                }
            } catch (SQLException e) {
                return refused(d, e) ? new Reaped(0, e, null) : new Reaped(0, null, e);
            }
            return new Reaped(ended, null, null);
        }
        int ended = 0;
        SQLException refusal = null;
        SQLException failure = null;
        for (long id : ids(c, d, scope, address, ageSeconds)) {
            try (var s = c.createStatement()) {
                s.execute("KILL CONNECTION " + id); // a number the server gave: nothing to quote
                ended++;
            } catch (SQLException e) {
                if (e.getErrorCode() == 1094) { // unknown thread id: it ended already
                    continue;
                }
                if (refused(d, e)) {
                    refusal = refusal == null ? e : refusal;
                } else {
                    failure = failure == null ? e : failure;
                }
            }
        }
        return new Reaped(ended, refusal, failure);
    }

    private static PreparedStatement prepare(Connection c, Dialect d, String select, ClientScope scope,
            String address, long ageSeconds) throws SQLException {
        String query = select + d.scopeCondition(scope.scope())
                + (d == Dialect.POSTGRESQL ? " ORDER BY pid" : " ORDER BY p.ID");
        PreparedStatement s = c.prepareStatement(query);
        try {
            s.setString(1, address);
            if (d == Dialect.POSTGRESQL) {
                s.setDouble(2, ageSeconds);
            } else {
                s.setLong(2, ageSeconds);
            }
            if (scope.scope() != io.poolbudget.api.v1alpha1.ObserveScope.Server) {
                s.setString(3, scope.name());
            }
            return s;
        } catch (SQLException | RuntimeException e) {
            s.close();
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
