package io.poolbudget.load;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;

/**
 * pgbench's default transaction (TPC-B-like) on a data set of its own schema: {@code scale} branches,
 * 10 tellers and 100,000 accounts per branch. Used by {@code calibrate} and by the pool-size benchmark,
 * so both load the database alike.
 */
public final class TpcbLike {
    private static final int ACCOUNTS_PER_BRANCH = 100_000;
    private final String schema;
    private final int scale;

    public TpcbLike(String schema, int scale) {
        this.schema = schema;
        this.scale = scale;
    }

    /** Drops and re-creates the schema with its data. */
    public void create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            s.execute("CREATE SCHEMA " + schema);
            s.execute("CREATE TABLE " + schema + ".branches (bid int PRIMARY KEY, bbalance int, filler char(88))");
            s.execute("CREATE TABLE " + schema
                    + ".tellers (tid int PRIMARY KEY, bid int, tbalance int, filler char(84))");
            s.execute("CREATE TABLE " + schema
                    + ".accounts (aid int PRIMARY KEY, bid int, abalance int, filler char(84))");
            s.execute("CREATE TABLE " + schema
                    + ".history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22))");
            s.execute("INSERT INTO " + schema + ".branches SELECT b, 0, '' FROM generate_series(1, " + scale + ") b");
            s.execute("INSERT INTO " + schema + ".tellers SELECT t, (t - 1) / 10 + 1, 0, '' FROM generate_series(1, "
                    + scale * 10 + ") t");
            s.execute("INSERT INTO " + schema + ".accounts SELECT a, (a - 1) / " + ACCOUNTS_PER_BRANCH + " + 1, 0, '' "
                    + "FROM generate_series(1, " + (long) scale * ACCOUNTS_PER_BRANCH + ") a");
        }
        freshen(c);
    }

    /** What pgbench does before each run: vacuum the small hot tables, empty the history. */
    public void freshen(Connection c) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            s.execute("VACUUM ANALYZE " + schema + ".branches, " + schema + ".tellers, " + schema + ".accounts");
            s.execute("TRUNCATE " + schema + ".history");
        } finally {
            c.setAutoCommit(auto);
        }
    }

    public void drop(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    /** One transaction: update an account, read it back, update its teller and branch, log it. */
    public void run(Connection c) throws SQLException {
        c.setAutoCommit(false);
        try {
            var r = ThreadLocalRandom.current();
            int aid = 1 + r.nextInt(scale * ACCOUNTS_PER_BRANCH);
            int tid = 1 + r.nextInt(scale * 10);
            int bid = 1 + r.nextInt(scale);
            int delta = r.nextInt(-5000, 5001);
            update(c, "UPDATE " + schema + ".accounts SET abalance = abalance + ? WHERE aid = ?", delta, aid);
            try (PreparedStatement p = c
                    .prepareStatement("SELECT abalance FROM " + schema + ".accounts WHERE aid = ?")) {
                p.setInt(1, aid);
                p.executeQuery().close();
            }
            update(c, "UPDATE " + schema + ".tellers SET tbalance = tbalance + ? WHERE tid = ?", delta, tid);
            update(c, "UPDATE " + schema + ".branches SET bbalance = bbalance + ? WHERE bid = ?", delta, bid);
            try (PreparedStatement p = c
                    .prepareStatement("INSERT INTO " + schema + ".history (tid, bid, aid, delta, mtime) "
                            + "VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP)")) {
                p.setInt(1, tid);
                p.setInt(2, bid);
                p.setInt(3, aid);
                p.setInt(4, delta);
                p.executeUpdate();
            }
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            throw e;
        }
    }

    private static void update(Connection c, String sql, int delta, int id) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            p.setInt(1, delta);
            p.setInt(2, id);
            p.executeUpdate();
        }
    }
}
