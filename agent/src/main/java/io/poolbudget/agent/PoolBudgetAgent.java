package io.poolbudget.agent;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The in-pod agent ({@code -javaagent:poolbudget-agent.jar=file=/etc/poolbudget/size,port=9477}): applies the pool
 * size the operator publishes for this pod to the pools the application builds, without a restart.
 * <ul>
 * <li>{@code file}: the published size, one whole number (a downward-API volume projecting the pod's own
 * annotation, which the kubelet refreshes within seconds of a change). Absent or empty: nothing published.</li>
 * <li>{@code port}: where the agent says what it applied ({@link StatusServer}); 0 for none.</li>
 * <li>{@code pools}: a regular expression on pool names (HikariCP's {@code poolName}, Quarkus' datasource name); only matching pools are sized, for an app
 * with pools to other databases. Default: every pool.</li>
 * <li>{@code waitMs}: how long the application's start waits for a first published size when there is none yet (a
 * new pod, whose size the operator publishes as soon as it sees it), so its pools are built at the current size;
 * then it starts with what its configuration says. Default 0.</li>
 * </ul>
 * HikariCP pools are found through their MBeans, which the agent asks every pool to register (its
 * {@code hikaricp.configurationFile} defaults, {@link HikariDefaults}); a new pool starts at the published size.
 * Agroal pools (Quarkus) are found in the application's CDI container once it has started ({@link QuarkusDataSources})
 * and resized on the next period; until the agent confirms them the operator counts the pod at the larger of its start
 * size and the published one.
 * The agent also measures the pod's demand for connections (in use plus callers waiting, {@link Demand}) and reports it
 * on the status port; it changes nothing by it.
 * Nothing here may stop the application: every failure is reported on the status port and in one log line.
 */
public final class PoolBudgetAgent {
    static final String DEFAULT_FILE = "/etc/poolbudget/size";
    static final int DEFAULT_PORT = 9477;

    private PoolBudgetAgent() {}

    public static void premain(String args, Instrumentation inst) {
        try {
            start(parse(args));
        } catch (Throwable e) { // whatever it is (a runtime without java.management, say), never the app's failure
            System.err.println("poolbudget-agent: not started, the application runs with its own pools: " + e);
        }
    }

    /** Starts the agent in this JVM: defaults for new pools, the resizer, the demand's sampling, the status port. */
    static Resizer start(Map<String, String> options) throws IOException {
        Path file = Path.of(options.getOrDefault("file", DEFAULT_FILE));
        int port = Integer.parseInt(options.getOrDefault("port", Integer.toString(DEFAULT_PORT)));
        long periodMs = Long.parseLong(options.getOrDefault("periodMs", "500"));
        Integer size = awaitSize(file, Long.parseLong(options.getOrDefault("waitMs", "0")));
        Path defaults = HikariDefaults.install(size, Files.createTempDirectory("poolbudget-agent"));
        var names = java.util.regex.Pattern.compile(options.getOrDefault("pools", ".*"));
        var pools = Pools.of(List.of(new HikariPools(names), new AgroalPools(new QuarkusDataSources(), names)));
        var resizer = new Resizer(file, pools, n -> HikariDefaults.update(defaults, n));
        HikariPools.onRegistration(resizer::tick);
        resizer.start(periodMs);
        var demand = new Demand(resizer::pools, System::nanoTime);
        demand.start();
        if (port > 0) {
            new StatusServer(port, resizer, demand).start();
        }
        return resizer;
    }

    /** The published size, waiting up to {@code waitMs} for one to appear; null when none did. */
    static Integer awaitSize(Path file, long waitMs) {
        long deadline = System.nanoTime() + waitMs * 1_000_000;
        Integer size = SizeFile.read(file);
        while (size == null && System.nanoTime() < deadline) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
            size = SizeFile.read(file);
        }
        return size;
    }

    /** "file=/x,port=1" as a map; an empty or null argument gives the defaults. */
    static Map<String, String> parse(String args) {
        Map<String, String> options = new LinkedHashMap<>();
        if (args == null || args.isBlank()) {
            return options;
        }
        for (String pair : args.split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("agent option '" + pair + "' is not name=value");
            }
            options.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return options;
    }
}
