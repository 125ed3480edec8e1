package io.poolbudget.it;

import io.poolbudget.install.ChartTools;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the ghost test does on the host, and undoes: statements as the test PostgreSQL's superuser (hack/postgres.sh
 * psql --for-tests), and a pod's traffic to and from the host dropped by two iptables rules of its own (inserted
 * first in INPUT and OUTPUT, for that pod's address only), so that a pod killed behind them never closes its
 * connections at PostgreSQL. Only the rules it added are removed, each by its exact spec.
 */
final class GhostHost implements AutoCloseable {
    private final List<List<String>> rules = new ArrayList<>();

    /** Runs statements as the superuser, in database app; fails the test on an error. */
    static String psql(String... statements) {
        List<String> cmd = new ArrayList<>(List.of("hack/postgres.sh", "psql", "--for-tests", "-qAt", "-v",
                "ON_ERROR_STOP=1"));
        for (String s : statements) {
            cmd.add("-c");
            cmd.add(s);
        }
        var run = ChartTools.run(cmd);
        if (run.exit() != 0) {
            throw new AssertionError("psql failed: " + run.output());
        }
        return run.output().strip();
    }

    /** The pids of the client backends PostgreSQL holds from {@code address}, as the monitoring role sees them. */
    static List<Integer> backends(String jdbc, String address) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbc, "poolbudget_monitor", "monitor");
                var s = c.prepareStatement("SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' "
                        + "AND host(client_addr) = ? ORDER BY pid")) {
            s.setString(1, address);
            List<Integer> pids = new ArrayList<>();
            try (var r = s.executeQuery()) {
                while (r.next()) {
                    pids.add(r.getInt(1));
                }
            }
            return pids;
        }
    }

    /** Drops every packet between the host and {@code podIp}, both ways, until {@link #close}. */
    void cut(String podIp) {
        for (var rule : List.of(List.of("INPUT", "-s", podIp, "-j", "DROP"), List.of("OUTPUT", "-d", podIp, "-j",
                "DROP"))) {
            List<String> insert = new ArrayList<>(List.of("iptables", "-w", "-I"));
            insert.addAll(rule);
            var run = ChartTools.run(insert);
            if (run.exit() != 0) {
                throw new AssertionError("iptables refused " + insert + ": " + run.output());
            }
            rules.add(rule);
        }
    }

    @Override
    public void close() {
        for (var rule : rules) {
            List<String> delete = new ArrayList<>(List.of("iptables", "-w", "-D"));
            delete.addAll(rule);
            var run = ChartTools.run(delete);
            if (run.exit() != 0) {
                System.err.println("GhostHost: could not remove " + delete + ": " + run.output());
            }
        }
        rules.clear();
    }
}
