package io.poolbudget.load;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;

/**
 * pgbench's default transaction (TPC-B-like) on a data set of its own schema: {@code scale} branches,
 * 10 tellers and 100,000 accounts per branch. Used by {@code calibrate} and by the pool-size benchmark,
 * so both load the database alike. On PostgreSQL, or on MariaDB and MySQL ({@link Server#MARIADB}: the schema is a
 * database of its own there, the same tables and the same transaction).
 */
public final class TpcbLike {
    private static final int ACCOUNTS_PER_BRANCH = 100_000;
    private static final int BATCH = 5_000;
    private final String schema;
    private final int scale;
    private final Server server;

    /** The server the data set lives on: what differs is only how the schema is made, filled and freshened. */
    public enum Server {
        POSTGRESQL, MARIADB
    }

    public TpcbLike(String schema, int scale) {
        this(schema, scale, Server.POSTGRESQL);
    }

    public TpcbLike(String schema, int scale, Server server) {
        this.schema = schema;
        this.scale = scale;
        this.server = server;
    }

    /** Drops and re-creates the schema with its data. */
    public void create(Connection c) throws SQLException {
        if (server == Server.MARIADB) {
            createOnMariaDb(c);
            return;
        }
        try (Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            s.execute("CREATE SCHEMA " + schema);
            createTables(s);
            s.execute("INSERT INTO " + schema + ".branches SELECT b, 0, '' FROM generate_series(1, " + scale + ") b");
            s.execute("INSERT INTO " + schema + ".tellers SELECT t, (t - 1) / 10 + 1, 0, '' FROM generate_series(1, "
                    + scale * 10 + ") t");
            s.execute("INSERT INTO " + schema + ".accounts SELECT a, (a - 1) / " + ACCOUNTS_PER_BRANCH + " + 1, 0, '' "
                    + "FROM generate_series(1, " + (long) scale * ACCOUNTS_PER_BRANCH + ") a");
        }
        freshen(c);
    }

    /**
     * pgbench's four tables, alike on both servers (mtime says NULL: MariaDB would give a first timestamp column a
     * default of its own otherwise; on PostgreSQL it is what a column is anyway).
     */
    private void createTables(Statement s) throws SQLException {
        s.execute("CREATE TABLE " + schema + ".branches (bid int PRIMARY KEY, bbalance int, filler char(88))");
        s.execute("CREATE TABLE " + schema + ".tellers (tid int PRIMARY KEY, bid int, tbalance int, filler char(84))");
        s.execute("CREATE TABLE " + schema + ".accounts (aid int PRIMARY KEY, bid int, abalance int, filler char(84))");
        s.execute("CREATE TABLE " + schema
                + ".history (tid int, bid int, aid int, delta int, mtime timestamp NULL, filler char(22))");
    }

    /** The same tables in a database of their own, filled by batches (MySQL has no generate_series). */
    private void createOnMariaDb(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + schema);
            s.execute("CREATE DATABASE " + schema);
            createTables(s);
        }
        fill(c, "branches (bid, bbalance, filler) VALUES (?, 0, '')", scale, 0);
        fill(c, "tellers (tid, bid, tbalance, filler) VALUES (?, ?, 0, '')", scale * 10, 10);
        fill(c, "accounts (aid, bid, abalance, filler) VALUES (?, ?, 0, '')", scale * ACCOUNTS_PER_BRANCH,
                ACCOUNTS_PER_BRANCH);
        freshen(c);
    }

    /**
     * Rows 1..n of {@code into} ("table (columns) VALUES (...)": the id, then its branch where {@code perBranch} is
     * above 0, that many to a branch), committed by batches.
     */
    private void fill(Connection c, String into, int n, int perBranch) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement p = c.prepareStatement("INSERT INTO " + schema + "." + into)) {
            for (int id = 1; id <= n; id++) {
                p.setInt(1, id);
                if (perBranch > 0) {
                    p.setInt(2, (id - 1) / perBranch + 1);
                }
                p.addBatch();
                if (id % BATCH == 0 || id == n) {
                    p.executeBatch();
                    c.commit();
                }
            }
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /** What pgbench does before each run: vacuum the small hot tables, empty the history. */
    public void freshen(Connection c) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            s.execute((server == Server.MARIADB ? "ANALYZE TABLE " : "VACUUM ANALYZE ") + schema + ".branches, "
                    + schema + ".tellers, " + schema + ".accounts");
            s.execute("TRUNCATE TABLE " + schema + ".history");
        } finally {
            c.setAutoCommit(auto);
        }
    }

    public void drop(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(server == Server.MARIADB ? "DROP DATABASE IF EXISTS " + schema
                    : "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
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
