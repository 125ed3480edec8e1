package io.poolbudget.status;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One read of a database's own view of its connections, or why it could not be read. Equal reads are
 * equal records, so an unchanged database triggers no reconcile and no status write.
 *
 * @param byClient client connections by client address (or application name), the reader's own left out
 * @param clientPods the labels of the policy's namespace's pod at a client address, for the addresses that are no pod
 *            the operator caches (pods it has not sized: started before it first sized their workload, or from a
 *            template it did not size), where such a pod was found; so their connections count for their workload
 * @param scope what byClient counts, as status says it: "database orders", "user app", "the server"
 * @param ghosts connections of pods that are gone, by address ({@link io.poolbudget.observe.Ghosts}); empty where
 *            there are none
 * @param ghostFix what ends such connections on this server (its settings), for the Warning that names them
 * @param inUseByClient of byClient's connections, those in use at the read, by the same keys
 *            ({@link io.poolbudget.observe.Dialect}: PostgreSQL's backends not idle, MariaDB's threads not asleep);
 *            empty where the read did not count them. A target's share is attributed as its byClient count is.
 */
public record Observation(long maxConnections, long superuserReserved, Map<String, Long> byClient, Failure failure,
        Map<String, Map<String, String>> clientPods, String scope, List<Ghost> ghosts, String ghostFix,
        Map<String, Long> inUseByClient) {
    /**
     * Connections from an address no pod has now, that a target's pod ({@code lastPod}: namespace/name of Kind/name)
     * had, opened before {@code since}: when the operator found the address without its pod.
     */
    public record Ghost(String address, long connections, Instant since, String lastPod) {}

    /** Why the database could not be read: a reason (SecretNotFound, Unreachable, LoginFailed, ...) and what to do. */
    public record Failure(String reason, String message) {}

    /** A read that did not count the connections in use. */
    public Observation(long maxConnections, long superuserReserved, Map<String, Long> byClient, Failure failure,
            Map<String, Map<String, String>> clientPods, String scope, List<Ghost> ghosts, String ghostFix) {
        this(maxConnections, superuserReserved, byClient, failure, clientPods, scope, ghosts, ghostFix, Map.of());
    }

    /** A read of a scope, with its clients' pods and without ghosts. */
    public Observation(long maxConnections, long superuserReserved, Map<String, Long> byClient, Failure failure,
            Map<String, Map<String, String>> clientPods, String scope) {
        this(maxConnections, superuserReserved, byClient, failure, clientPods, scope, List.of(), null);
    }

    /** A read of the whole server whose clients' pods were not looked up. */
    public Observation(long maxConnections, long superuserReserved, Map<String, Long> byClient, Failure failure) {
        this(maxConnections, superuserReserved, byClient, failure, Map.of(), "the server");
    }

    public static Observation failed(String reason, String message) {
        return new Observation(0, 0, Map.of(), new Failure(reason, message));
    }

    /** A read of the client connections of a scope ({@code scope}: "database orders", ...). */
    public static Observation of(long maxConnections, long superuserReserved, Map<String, Long> byClient,
            String scope) {
        return new Observation(maxConnections, superuserReserved, byClient, null, Map.of(), scope);
    }

    /** This read, with the labels of the pods found at some of its client addresses. */
    public Observation withClientPods(Map<String, Map<String, String>> pods) {
        return new Observation(maxConnections, superuserReserved, byClient, failure, Map.copyOf(pods), scope, ghosts,
                ghostFix, inUseByClient);
    }

    /** This read, with the ghosts found among its clients and what ends them on its server. */
    public Observation withGhosts(List<Ghost> found, String fix) {
        return new Observation(maxConnections, superuserReserved, byClient, failure, clientPods, scope,
                List.copyOf(found), found.isEmpty() ? null : fix, inUseByClient);
    }

    /** This read, with the connections in use of each client (the keys of {@link #byClient}). */
    public Observation withInUse(Map<String, Long> inUse) {
        return new Observation(maxConnections, superuserReserved, byClient, failure, clientPods, scope, ghosts,
                ghostFix, Map.copyOf(inUse));
    }

    /** Of a client's connections ({@link #byClient}'s key), those in use at the read; null where not counted. */
    public Long inUse(String client) {
        return inUseByClient.get(client);
    }

    /** Of {@link #connections}, those of pods that are gone. */
    public long ghostConnections() {
        return ghosts.stream().mapToLong(Ghost::connections).sum();
    }

    public long connections() {
        return byClient.values().stream().mapToLong(Long::longValue).sum();
    }
}
