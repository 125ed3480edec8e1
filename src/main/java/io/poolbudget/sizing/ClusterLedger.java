package io.poolbudget.sizing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One database's budget split between the clusters whose operators share it (issue 57): the ledger's rows, kept in
 * the database itself, and one cluster's tick on them, as one transaction would apply it. Pure.
 * <p>
 * Each cluster's row is its <em>claim</em>: its weight, the budget it computes for the database, what it is
 * <em>granted</em> (what its pods may hold now), what it reported they <em>hold</em> at most (its plan's peak and its
 * pods' confirmed sizes, whichever is larger), and a lease in the database's clock. The rules:
 * <ul>
 * <li>The budget is the smallest any claim declares, so no cluster's view of the database is exceeded.</li>
 * <li>The clusters whose lease runs split the budget, less what lapsed claims still hold, by weight: each one's
 * <em>target</em>.</li>
 * <li>A grant goes down only to what the cluster's pods hold (a claim shrinks when its pods confirm the smaller size),
 * and up only into room no other claim holds: Σ grants never rises above the budget.</li>
 * <li>A cluster plans with the smaller of its grant and its target.</li>
 * <li>A claim whose lease has lapsed keeps its grant until the database shows none of its connections (its
 * <em>evidence</em>: a client address range, an application name or a user); only then is it freed. Where that cannot
 * be read, it is kept.</li>
 * </ul>
 */
public final class ClusterLedger {
    public static final int NAME_LENGTH = 63;

    /** A cluster's row; {@code leaseUntil} in the database's clock (ms), {@code evidence} opaque here. */
    public record Claim(String cluster, int weight, long declared, long granted, long holds, long leaseUntil,
            String evidence) {}

    /**
     * What a cluster brings to its tick: its weight and budget, what its pods may hold, its lease and evidence.
     * {@code resuming}: the first tick of an operator that just started, which cannot tell yet what its pods were
     * told before: its grant does not go down on this tick.
     */
    public record Tick(String cluster, int weight, long declared, long holds, long leaseMillis, String evidence,
            boolean resuming) {
        public Tick(String cluster, int weight, long declared, long holds, long leaseMillis, String evidence) {
            this(cluster, weight, declared, holds, leaseMillis, evidence, false);
        }

        public Tick {
            Check.atLeast("ledger weight", weight, 1);
            Check.atMost("ledger weight", weight, Limits.WEIGHT);
            Check.atLeast("ledger budget", declared, 0);
            Check.atLeast("connections held", holds, 0);
            Check.atLeast("ledger lease", leaseMillis, 1);
        }
    }

    /** A tick's result. */
    public sealed interface Outcome permits Settled, Refused, Failed {}

    /**
     * The ledger after the tick ({@code claims}: this cluster's row written, freed rows gone, the others as read), the
     * budget, this cluster's target and grant, what it plans with, why it waits below its target, what changed, and the
     * database's clock it was read at.
     */
    public record Settled(List<Claim> claims, long budget, long target, long granted, long planWith,
            List<String> waits, List<String> events, long at) implements Outcome {}

    /** A row the ledger cannot hold, named with what is wrong: nothing is written, the cluster keeps its sizes. */
    public record Refused(String reason) implements Outcome {}

    /**
     * The ledger could not be read or written ({@code reason} in one word, for a condition: LoginFailed, Unreachable,
     * PermissionDenied): nothing changed, the cluster keeps its sizes.
     */
    public record Failed(String reason, String message) implements Outcome {}

    private ClusterLedger() {}

    /**
     * {@code tick.cluster()}'s tick at {@code now} (the database's clock, ms) on {@code claims} as read in the
     * transaction. {@code seen}: the connections the database shows now for each lapsed claim's evidence (absent where
     * they could not be read).
     */
    public static Outcome tick(List<Claim> claims, Tick tick, long now, Map<String, Long> seen) {
        String invalid = invalid(claims);
        if (invalid != null) {
            return new Refused(invalid);
        }
        List<String> events = new ArrayList<>();
        List<String> waits = new ArrayList<>();
        Map<String, Claim> rows = new LinkedHashMap<>();
        claims.stream().sorted(Comparator.comparing(Claim::cluster)).forEach(c -> rows.put(c.cluster(), c));
        Claim before = rows.remove(tick.cluster());
        for (Claim c : List.copyOf(rows.values())) {
            if (c.leaseUntil() >= now) {
                continue;
            }
            Long count = seen.get(c.cluster());
            if (count != null && count == 0) {
                rows.remove(c.cluster());
                events.add("freed cluster " + c.cluster() + "'s " + c.granted() + ": its lease lapsed and the "
                        + "database shows none of its connections (" + c.evidence() + ")");
            } else if (c.granted() > 0) {
                waits.add("cluster " + c.cluster() + " still holds " + c.granted() + " until its lease ends and its "
                        + "connections close (" + (count == null ? "its connections could not be read"
                                : count + " open, " + c.evidence())
                        + ")");
            }
        }
        long budget = rows.values().stream().mapToLong(Claim::declared).reduce(tick.declared(), Math::min);
        long target = target(rows, tick, budget, now);
        long others = rows.values().stream().mapToLong(Claim::granted).sum();
        long free = Math.max(0, budget - others);
        long holds = tick.resuming() && before != null ? Math.max(tick.holds(), before.granted()) : tick.holds();
        long granted = Math.max(holds, Math.min(target, free));
        long planWith = Math.min(granted, target);
        if (planWith < target) {
            rows.values().stream().filter(c -> c.leaseUntil() >= now && c.granted() > c.holds())
                    .forEach(c -> waits.add("cluster " + c.cluster() + " is granted " + c.granted() + " and may "
                            + "use it"));
            rows.values().stream().filter(c -> c.leaseUntil() >= now && c.granted() <= c.holds() && c.granted() > 0)
                    .forEach(c -> waits.add("cluster " + c.cluster() + " still holds " + c.granted()
                            + " until its pods confirm a smaller size"));
        }
        if (others + granted > budget) {
            waits.add("the clusters hold " + (others + granted) + " of a budget of " + budget + ": no raise until "
                    + "they shrink");
        }
        events.addAll(changes(before, tick, granted));
        Claim self = new Claim(tick.cluster(), tick.weight(), tick.declared(), granted, holds,
                now + tick.leaseMillis(), tick.evidence());
        rows.put(self.cluster(), self);
        List<Claim> after = rows.values().stream().sorted(Comparator.comparing(Claim::cluster)).toList();
        return new Settled(after, budget, target, granted, planWith, List.copyOf(waits), List.copyOf(events), now);
    }

    /**
     * The cluster's part of the budget, by weight among the clusters whose lease runs, after what lapsed claims still
     * hold. Largest remainder, ties in cluster name order.
     */
    static long target(Map<String, Claim> others, Tick tick, long budget, long now) {
        Map<String, Integer> live = new java.util.TreeMap<>();
        long lapsedHold = 0;
        for (Claim c : others.values()) {
            if (c.leaseUntil() >= now) {
                live.put(c.cluster(), c.weight());
            } else {
                lapsedHold += c.granted();
            }
        }
        live.put(tick.cluster(), tick.weight());
        List<String> names = new ArrayList<>(live.keySet());
        long[] weights = names.stream().mapToLong(live::get).toArray();
        long[] parts = SharedBudget.largestRemainder(Math.max(0, budget - lapsedHold), weights);
        return parts[names.indexOf(tick.cluster())];
    }

    private static List<String> changes(Claim before, Tick tick, long granted) {
        if (before == null) {
            return List.of("cluster " + tick.cluster() + " joined with weight " + tick.weight() + ", granted "
                    + granted);
        }
        List<String> changes = new ArrayList<>();
        if (granted != before.granted()) {
            changes.add("cluster " + tick.cluster() + " granted " + before.granted() + " → " + granted);
        }
        if (tick.weight() != before.weight()) {
            changes.add("cluster " + tick.cluster() + " weight " + before.weight() + " → " + tick.weight());
        }
        if (tick.declared() != before.declared()) {
            changes.add("cluster " + tick.cluster() + " budget " + before.declared() + " → " + tick.declared());
        }
        return changes;
    }

    /** What makes the rows as read impossible to have come from ticks, naming the row and field; null when none. */
    static String invalid(List<Claim> claims) {
        Map<String, Long> names = claims.stream().collect(Collectors.groupingBy(Claim::cluster,
                Collectors.counting()));
        for (Claim c : claims) {
            String row = "ledger row of cluster " + c.cluster();
            if (c.cluster() == null || c.cluster().isEmpty() || c.cluster().length() > NAME_LENGTH) {
                return "a ledger row has a cluster name that is empty or longer than " + NAME_LENGTH;
            }
            if (names.get(c.cluster()) > 1) {
                return row + " appears " + names.get(c.cluster()) + " times";
            }
            if (c.weight() < 1 || c.weight() > Limits.WEIGHT) {
                return row + ": weight " + c.weight() + " is outside 1.." + Limits.WEIGHT;
            }
            long most = Limits.saturatedMultiply(Limits.CONNECTIONS, Limits.INSTANCES);
            if (c.declared() < 0 || c.declared() > most) {
                return row + ": budget " + c.declared() + " is outside 0.." + most;
            }
            if (c.granted() < 0 || c.holds() < 0) {
                return row + ": granted " + c.granted() + " and holds " + c.holds() + " may not be negative";
            }
            if (c.granted() < c.holds()) {
                return row + ": granted " + c.granted() + " is less than the " + c.holds() + " its pods hold, "
                        + "which no tick writes";
            }
        }
        return null;
    }
}
