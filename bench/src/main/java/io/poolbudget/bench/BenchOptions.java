package io.poolbudget.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** bench/demand-allocation.sh's options, described there. */
record BenchOptions(String url, String user, String password, String query, int connectionTimeoutMs, int budget,
        double busyRate, double busyLoad, double quietRate, int phaseSeconds, int periodSeconds,
        int sweepSeconds, int lendablePercent, int borrowingLimitPercent, List<String> strategies,
        String out, String commit) {

    static BenchOptions parse(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("--jdbc-url", null);
        o.put("--username", "app");
        o.put("--query", "SELECT pg_sleep(0.004)");
        o.put("--connection-timeout-ms", "2000");
        o.put("--budget", "12");
        o.put("--busy-rate", "0");
        o.put("--busy-load", "0.85");
        o.put("--quiet-rate", "20");
        o.put("--phase-seconds", "60");
        o.put("--sweep-seconds", "30");
        o.put("--period-seconds", "10");
        o.put("--lendable-percent", "50");
        o.put("--borrowing-limit-percent", "100");
        o.put("--strategies", "equal,oracle,late,demand");
        o.put("--out", "bench/results");
        o.put("--commit", "unknown");
        for (int i = 0; i < args.length; i++) {
            if (!o.containsKey(args[i]) || i + 1 == args.length) {
                throw new IllegalArgumentException("unknown option or no value: " + args[i] + " (options: "
                        + String.join(" ", o.keySet()) + ")");
            }
            o.put(args[i], args[++i]);
        }
        if (o.get("--jdbc-url") == null) {
            throw new IllegalArgumentException("--jdbc-url is required");
        }
        return new BenchOptions(o.get("--jdbc-url"), o.get("--username"),
                System.getenv().getOrDefault("PGPASSWORD", ""), o.get("--query"),
                Integer.parseInt(o.get("--connection-timeout-ms")), Integer.parseInt(o.get("--budget")),
                Double.parseDouble(o.get("--busy-rate")), Double.parseDouble(o.get("--busy-load")),
                Double.parseDouble(o.get("--quiet-rate")),
                Integer.parseInt(o.get("--phase-seconds")), Integer.parseInt(o.get("--period-seconds")),
                Integer.parseInt(o.get("--sweep-seconds")),
                Integer.parseInt(o.get("--lendable-percent")), Integer.parseInt(o.get("--borrowing-limit-percent")),
                List.of(o.get("--strategies").split(",")), o.get("--out"), o.get("--commit"));
    }

    /** The same with the busy workloads' rate set (from --busy-load, once one connection's rate is measured). */
    BenchOptions withBusyRate(double rate) {
        return new BenchOptions(url, user, password, query, connectionTimeoutMs, budget, rate, busyLoad, quietRate,
                phaseSeconds, periodSeconds, sweepSeconds, lendablePercent, borrowingLimitPercent,
                strategies, out, commit);
    }

    /** The four phases: a, b, c busy in turn, then all three. */
    List<DemandFleet.Phase> phases() {
        return phases(phaseSeconds);
    }

    /** The same, each {@code seconds} long. */
    List<DemandFleet.Phase> phases(int seconds) {
        String[] names = {"A busy", "B busy", "C busy", "all busy"};
        var phases = new java.util.ArrayList<DemandFleet.Phase>();
        for (int p = 0; p < names.length; p++) {
            double[] rates = new double[DemandFleet.NAMES.length];
            for (int w = 0; w < rates.length; w++) {
                rates[w] = p == 3 || p == w ? busyRate : quietRate;
            }
            phases.add(new DemandFleet.Phase(names[p], rates, seconds));
        }
        return List.copyOf(phases);
    }

    /** Equal weights: the budget in equal shares, what is left over to the first targets in name order. */
    int[] equalShares() {
        int n = DemandFleet.NAMES.length;
        int[] sizes = new int[n];
        for (int w = 0; w < n; w++) {
            sizes[w] = budget / n + (w < budget % n ? 1 : 0);
        }
        return sizes;
    }
}
