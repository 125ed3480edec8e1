package io.poolbudget.status;

import java.util.Map;

/**
 * One read of a database's own view of its connections, or why it could not be read. Equal reads are
 * equal records, so an unchanged database triggers no reconcile and no status write.
 *
 * @param byClient client connections by client address (or application name), the reader's own left out
 */
public record Observation(long maxConnections, long superuserReserved, Map<String, Long> byClient, Failure failure) {
    /** Why the database could not be read: a reason (SecretNotFound, Unreachable, LoginFailed, ...) and what to do. */
    public record Failure(String reason, String message) {}

    public static Observation failed(String reason, String message) {
        return new Observation(0, 0, Map.of(), new Failure(reason, message));
    }

    public long connections() {
        return byClient.values().stream().mapToLong(Long::longValue).sum();
    }
}
