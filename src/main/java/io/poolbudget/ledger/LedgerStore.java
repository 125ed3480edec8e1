package io.poolbudget.ledger;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.poolbudget.observe.Dialect;
import io.poolbudget.sizing.ClusterLedger;
import io.poolbudget.sizing.ClusterLedger.Claim;
import io.poolbudget.sizing.ClusterLedger.Failed;
import io.poolbudget.sizing.ClusterLedger.Outcome;
import io.poolbudget.sizing.ClusterLedger.Settled;
import io.poolbudget.sizing.ClusterLedger.Tick;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The ledger in the database the clusters share (PostgreSQL): three tables in a schema of its own, and one cluster's
 * tick as one transaction. The transaction locks the ledger's row, reads every claim and the database's clock, counts
 * the connections of each lapsed claim's {@link Evidence}, applies {@link ClusterLedger#tick} and writes what it
 * decided: this cluster's row, the rows it freed and an event per change. Nothing else writes the claims, so Σ
 * granted stays within the budget whatever the clusters do at the same time. A failure writes nothing and says what
 * to fix; never throws.
 */
public final class LedgerStore implements AutoCloseable {
    public static final String SCHEMA = "poolbudget_ledger";
    static final String APPLICATION_NAME = "poolbudget-ledger";
    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    public record Credentials(String jdbcUrl, String username, String password) {}

    private final Credentials credentials;
    private final String schema;
    private final HikariDataSource pool;
    private volatile boolean tablesMade;

    public LedgerStore(Credentials credentials, String schema) {
        if (!IDENTIFIER.matcher(schema).matches()) {
            throw new IllegalArgumentException("the ledger's schema " + schema + " is not a lower-case SQL name");
        }
        if (Dialect.of(credentials.jdbcUrl()) != Dialect.POSTGRESQL) {
            throw new IllegalArgumentException("the ledger lives in PostgreSQL for now: a jdbcUrl starting "
                    + "jdbc:postgresql:, not " + credentials.jdbcUrl());
        }
        this.credentials = credentials;
        this.schema = schema;
        var config = new HikariConfig();
        config.setPoolName("poolbudget-ledger-" + schema);
        Dialect.POSTGRESQL.configure(config, credentials.jdbcUrl(), APPLICATION_NAME);
        config.setUsername(credentials.username());
        config.setPassword(credentials.password());
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(5_000);
        config.setAutoCommit(false);
        config.setInitializationFailTimeout(-1); // a ledger that cannot be reached now is a tick's Failed
        this.pool = new HikariDataSource(config);
    }

    /** One tick of {@code tick.cluster()} on ledger {@code ledger}, in one transaction. */
    public Outcome tick(String ledger, Tick tick) {
        try (Connection c = pool.getConnection()) {
            try {
                makeTables(c);
                Outcome outcome = tick(c, ledger, tick);
                if (outcome instanceof Settled) {
                    c.commit();
                } else {
                    c.rollback();
                }
                return outcome;
            } catch (SQLException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            return failure(e);
        }
    }

    private Outcome tick(Connection c, String ledger, Tick tick) throws SQLException {
        update(c, "INSERT INTO " + schema + ".ledgers (name) VALUES (?) ON CONFLICT (name) DO NOTHING", ledger);
        try (var lock = c.prepareStatement("SELECT name FROM " + schema + ".ledgers WHERE name = ? FOR UPDATE")) {
            lock.setString(1, ledger);
            lock.executeQuery().close();
        }
        long now;
        try (ResultSet r = c.createStatement().executeQuery(
                "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint")) {
            r.next();
            now = r.getLong(1);
        }
        List<Claim> claims = claims(c, ledger);
        Outcome outcome = ClusterLedger.tick(claims, tick, now, seen(c, claims, tick.cluster(), now));
        if (outcome instanceof Settled s) {
            write(c, ledger, claims, s, tick.cluster());
        }
        return outcome;
    }

    private List<Claim> claims(Connection c, String ledger) throws SQLException {
        List<Claim> claims = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT cluster, weight, declared, granted, holds, "
                + "(extract(epoch FROM lease_until) * 1000)::bigint, evidence FROM " + schema
                + ".claims WHERE ledger = ?")) {
            s.setString(1, ledger);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    claims.add(new Claim(r.getString(1), r.getInt(2), r.getLong(3), r.getLong(4), r.getLong(5),
                            r.getLong(6), r.getString(7)));
                }
            }
        }
        return claims;
    }

    /**
     * The connections the database shows for each lapsed claim's evidence. Only an account that sees every session
     * (pg_read_all_stats) can tell that none remain: without it, or for evidence that is not ours, none are counted,
     * and those claims are kept.
     */
    private Map<String, Long> seen(Connection c, List<Claim> claims, String self, long now) throws SQLException {
        Map<String, Long> seen = new HashMap<>();
        List<Claim> lapsed = claims.stream().filter(x -> x.leaseUntil() < now && !x.cluster().equals(self)).toList();
        if (lapsed.isEmpty() || !seesEverySession(c)) {
            return seen;
        }
        for (Claim claim : lapsed) {
            Evidence evidence = Evidence.parse(claim.evidence());
            if (evidence == null) {
                continue;
            }
            try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE backend_type "
                    + "= 'client backend' AND pid <> pg_backend_pid() AND " + evidence.condition())) {
                s.setString(1, evidence.value());
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    seen.put(claim.cluster(), r.getLong(1));
                }
            }
        }
        return seen;
    }

    private static boolean seesEverySession(Connection c) throws SQLException {
        try (ResultSet r = c.createStatement().executeQuery("SELECT pg_has_role(current_user, 'pg_read_all_stats', "
                + "'USAGE') OR (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)")) {
            return r.next() && r.getBoolean(1);
        }
    }

    private void write(Connection c, String ledger, List<Claim> before, Settled s, String self) throws SQLException {
        Set<String> kept = s.claims().stream().map(Claim::cluster).collect(Collectors.toSet());
        for (Claim gone : before) {
            if (!kept.contains(gone.cluster())) {
                update(c, "DELETE FROM " + schema + ".claims WHERE ledger = ? AND cluster = ?", ledger,
                        gone.cluster());
            }
        }
        Claim row = s.claims().stream().filter(x -> x.cluster().equals(self)).findFirst().orElseThrow();
        try (PreparedStatement u = c.prepareStatement("INSERT INTO " + schema + ".claims (ledger, cluster, weight, "
                + "declared, granted, holds, lease_until, evidence) VALUES (?, ?, ?, ?, ?, ?, "
                + "to_timestamp(? / 1000.0), ?) ON CONFLICT (ledger, cluster) DO UPDATE SET weight = excluded.weight, "
                + "declared = excluded.declared, granted = excluded.granted, holds = excluded.holds, "
                + "lease_until = excluded.lease_until, evidence = excluded.evidence")) {
            u.setString(1, ledger);
            u.setString(2, row.cluster());
            u.setInt(3, row.weight());
            u.setLong(4, row.declared());
            u.setLong(5, row.granted());
            u.setLong(6, row.holds());
            u.setLong(7, row.leaseUntil());
            u.setString(8, row.evidence());
            u.executeUpdate();
        }
        for (String event : s.events()) {
            update(c, "INSERT INTO " + schema + ".events (ledger, cluster, message) VALUES (?, ?, ?)", ledger, self,
                    event);
        }
    }

    /** The tables, where the account may create them (it owns the schema); where it may not, they must exist. */
    private void makeTables(Connection c) throws SQLException {
        if (tablesMade) {
            return;
        }
        try (var s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + schema + ".ledgers (name text PRIMARY KEY)");
            s.execute("CREATE TABLE IF NOT EXISTS " + schema + ".claims (ledger text NOT NULL REFERENCES " + schema
                    + ".ledgers (name), cluster text NOT NULL, weight integer NOT NULL, declared bigint NOT NULL, "
                    + "granted bigint NOT NULL, holds bigint NOT NULL, lease_until timestamptz NOT NULL, evidence "
                    + "text NOT NULL, PRIMARY KEY (ledger, cluster))");
            s.execute("CREATE TABLE IF NOT EXISTS " + schema + ".events (id bigserial PRIMARY KEY, at timestamptz "
                    + "NOT NULL DEFAULT clock_timestamp(), ledger text NOT NULL, cluster text NOT NULL, message text "
                    + "NOT NULL)");
            c.commit();
            tablesMade = true;
        } catch (SQLException e) {
            c.rollback();
            if (!"42501".equals(e.getSQLState())) {
                throw e;
            }
            tablesMade = true; // may not create: the tables must be there, and the tick says so if they are not
        }
    }

    private static void update(Connection c, String sql, String... values) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                s.setString(i + 1, values[i]);
            }
            s.executeUpdate();
        }
    }

    /** What went wrong, in the words a person fixes it with. */
    private Failed failure(SQLException e) {
        SQLException root = e;
        while (root.getCause() instanceof SQLException cause) {
            root = cause;
        }
        String state = root.getSQLState() == null ? "" : root.getSQLState();
        String message = root.getMessage() == null ? e.getMessage() : root.getMessage();
        if (state.startsWith("28")) {
            return new Failed("LoginFailed", "the database refused the ledger's login (" + message + "): check the "
                    + "ledger Secret's username and password and the server's pg_hba.conf");
        }
        if (state.equals("42501") || state.equals("3F000") || state.equals("42P01")) {
            return new Failed("PermissionDenied", "account " + credentials.username() + " may not write the ledger "
                    + "in schema " + schema + " (" + message + "): as the database's owner, run CREATE SCHEMA "
                    + schema + " AUTHORIZATION " + credentials.username() + " (docs/clusters.md)");
        }
        if (state.startsWith("08") || state.isEmpty()) {
            return new Failed("Unreachable", "cannot reach the ledger's database (" + message + "): check the "
                    + "ledger Secret's jdbcUrl and that the operator may connect to it");
        }
        return new Failed("LedgerError", "the ledger's database answered " + state + ": " + message);
    }

    @Override
    public void close() {
        pool.close();
    }
}
