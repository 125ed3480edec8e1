package io.poolbudget.status;

import static io.poolbudget.status.Conditions.FALSE;
import static io.poolbudget.status.Conditions.TRUE;

import io.fabric8.kubernetes.api.model.Condition;
import io.poolbudget.api.v1alpha1.ObserveGroupBy;
import io.poolbudget.api.v1alpha1.ObserveSpec;
import io.poolbudget.api.v1alpha1.ObservedStatus;
import io.poolbudget.api.v1alpha1.ObservedStatus.ObservedClient;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.api.v1alpha1.TargetStatus;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Adds what the database reported to a policy's status: the counts, each target's share (by its pods'
 * addresses), and two conditions. ObservedOverBudget is True when the server's own count in the observe scope (one
 * database, one account, or the whole server) is above the budget (an app ignores the injected size, or a client the
 * policy does not know) or when the server's max_connections − superuser_reserved_connections cannot hold the budget,
 * whatever the scope; ObservationFailing is True while the database cannot be read. Pure: no client, no I/O.
 */
public final class ObservedAggregator {
    public static final int CLIENTS_LISTED = 10;
    public static final int GHOSTS_LISTED = 5;

    private ObservedAggregator() {}

    /**
     * @param podIps per listed target ({@code Kind/name}), the addresses of its pods the operator caches
     * @param observation null until the first read has finished
     * @param instances database.instances: the server read is one of them, so it is held to its share of the budget
     */
    public static void apply(PoolPolicyStatus status, ObserveSpec spec, Observation observation,
            Map<String, Set<String>> podIps,
            int instances, List<Condition> previous, long generation, Clock clock) {
        List<Condition> conditions = status.getConditions();
        if (observation == null) {
            conditions.add(Conditions.carry(previous, Conditions.OBSERVATION_FAILING, Conditions.UNKNOWN,
                    Conditions.REASON_NOT_READ_YET, "the database has not been read yet", generation, clock));
            return;
        }
        if (observation.failure() != null) {
            conditions.add(Conditions.carry(previous, Conditions.OBSERVATION_FAILING, TRUE,
                    observation.failure().reason(),
                    "Secret " + spec.getSecretName() + ": " + observation.failure().message(), generation, clock));
            conditions.add(Conditions.carry(previous, Conditions.OBSERVED_OVER_BUDGET, Conditions.UNKNOWN,
                    Conditions.REASON_NOT_READ_YET, "the database cannot be read", generation, clock));
            return;
        }
        conditions.add(Conditions.carry(previous, Conditions.OBSERVATION_FAILING, FALSE, Conditions.REASON_OBSERVING,
                "the server's client connections are read every " + spec.getIntervalSeconds() + " s, those of "
                        + observation.scope() + " counted",
                generation, clock));
        boolean byAddress = spec.getGroupBy() != ObserveGroupBy.ApplicationName;
        Map<String, Long> byClient = new LinkedHashMap<>();
        List<String> suspects = attribute(status, observation, podIps, byAddress, byClient);
        conditions.add(overBudget(status, observation, instances, byAddress, byClient, suspects, previous, generation,
                clock));
    }

    /**
     * The counts in status.observed, by client and, where clients are told apart by address, by target: each target's
     * pods' count in its row. Returns the targets whose pods hold more than they declare (does the app read the
     * variable?).
     */
    private static List<String> attribute(PoolPolicyStatus status, Observation observation,
            Map<String, Set<String>> podIps, boolean byAddress, Map<String, Long> byClient) {
        Map<String, Long> byTarget = new HashMap<>();
        observation.byClient().forEach((client, n) -> {
            String target = byAddress ? owner(client, podIps) : null;
            byClient.merge(target == null ? client : target, n, Long::sum);
            if (target != null) {
                byTarget.merge(target, n, Long::sum);
            }
        });
        var observed = new ObservedStatus();
        observed.setScope(observation.scope());
        observed.setConnections(observation.connections());
        observed.setMaxConnections(observation.maxConnections());
        observed.setSuperuserReservedConnections(observation.superuserReserved());
        observed.setClients(top(byClient));
        ghosts(observed, observation);
        status.setObserved(observed);
        List<String> suspects = new ArrayList<>();
        for (TargetStatus t : status.getTargets()) {
            String id = t.getKind() + "/" + t.getName();
            if (byAddress && t.getName() != null) {
                t.setObservedConnections(byTarget.getOrDefault(id, 0L));
                if (t.getLiveConnections() != null && t.getObservedConnections() > t.getLiveConnections()) {
                    suspects.add(id + ": " + t.getObservedConnections() + " from its pods, which declare "
                            + t.getLiveConnections() + " (pool size " + t.getAppliedPoolSize() + "): does the app read "
                            + "the injected variable?");
                }
            }
        }
        return suspects;
    }

    /**
     * ObservedOverBudget: the scope's count against the budget (its share per instance), or the server's capacity below
     * it. Each number says whose it is: the scope's count, the server's max_connections.
     */
    private static Condition overBudget(PoolPolicyStatus status, Observation observation, int instances,
            boolean byAddress, Map<String, Long> byClient, List<String> suspects,
            List<Condition> previous, long generation, Clock clock) {
        long total = observation.connections();
        long budget = Math.floorDiv(status.getBudget().getConnections() + instances - 1, instances);
        String budgetText = instances == 1 ? "the budget of " + budget : "the budget of " + budget + " per instance ("
                + status.getBudget().getConnections() + " over " + instances + " instances)";
        long capacity = observation.maxConnections() - observation.superuserReserved();
        Map<String, Observation.Ghost> ghosts = observation.ghosts().stream().collect(Collectors.toMap(
                Observation.Ghost::address, g -> g));
        String others = byAddress ? byClient.entrySet().stream().filter(e -> !e.getKey().contains("/"))
                .map(e -> e.getKey() + " " + e.getValue() + ghostNote(ghosts.get(e.getKey())))
                .collect(Collectors.joining(", ")) : "";
        if (capacity < budget) {
            return Conditions.carry(previous, Conditions.OBSERVED_OVER_BUDGET, TRUE,
                    Conditions.REASON_CAPACITY_BELOW_BUDGET, "the server's max_connections "
                            + observation.maxConnections()
                            + " − superuser_reserved_connections " + observation.superuserReserved() + " = " + capacity
                            + " is below " + budgetText + ": set database.maxConnections: "
                            + observation.maxConnections() + " in the policy, or raise max_connections",
                    generation, clock);
        } else if (total > budget) {
            return Conditions.carry(previous, Conditions.OBSERVED_OVER_BUDGET, TRUE,
                    Conditions.REASON_CONNECTIONS_OVER_BUDGET,
                    observation.scope() + " holds " + total + " client connections, above "
                            + budgetText + (suspects.isEmpty() ? "" : "; " + String.join("; ", suspects))
                            + (others.isEmpty() ? "" : "; not from a target: " + others)
                            + (ghosts.isEmpty() ? "" : "; to end ghosts: " + observation.ghostFix()),
                    generation, clock);
        }
        return Conditions.carry(previous, Conditions.OBSERVED_OVER_BUDGET, FALSE, Conditions.REASON_WITHIN_BUDGET,
                observation.scope() + " holds " + total + " client connections, within " + budgetText,
                generation, clock);
    }

    /** " (3 of them of pod ns/web-1 (Deployment/web), gone since ...: ghosts)", or "" for an address without. */
    private static String ghostNote(Observation.Ghost g) {
        return g == null ? "" : " (" + g.connections() + " of them of pod " + g.lastPod() + ", gone since "
                + g.since().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + ": ghosts; "
                + "see status.observed.ghosts)";
    }

    /** The ghosts (connections of pods that are gone), most first: the first {@link #GHOSTS_LISTED}, and how many. */
    private static void ghosts(ObservedStatus observed, Observation observation) {
        if (observation.ghosts().isEmpty()) {
            return;
        }
        observed.setGhostConnections(observation.ghostConnections());
        observed.setGhostAddresses(observation.ghosts().size());
        observed.setGhosts(observation.ghosts().stream().sorted(java.util.Comparator.comparingLong(
                Observation.Ghost::connections).reversed().thenComparing(Observation.Ghost::address))
                .limit(GHOSTS_LISTED).map(g -> new ObservedStatus.Ghost(g.address(), g.connections(),
                        g.since().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString(), g.lastPod()))
                .toList());
    }

    /** The target whose pod has this address, as Kind/name; null if none. */
    private static String owner(String address, Map<String, Set<String>> podIps) {
        for (var e : podIps.entrySet()) {
            if (e.getValue().contains(address)) {
                return e.getKey();
            }
        }
        return null;
    }

    private static List<ObservedClient> top(Map<String, Long> byClient) {
        List<Map.Entry<String, Long>> sorted = byClient.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .toList();
        List<ObservedClient> listed = new ArrayList<>();
        long rest = 0;
        for (int i = 0; i < sorted.size(); i++) {
            if (i < CLIENTS_LISTED) {
                listed.add(new ObservedClient(sorted.get(i).getKey(), sorted.get(i).getValue()));
            } else {
                rest += sorted.get(i).getValue();
            }
        }
        if (rest > 0) {
            listed.add(new ObservedClient("other", rest));
        }
        return listed;
    }
}
