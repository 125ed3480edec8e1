package io.poolbudget.status;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Whether two statuses would be written alike: compared as the JSON the API server would store, so that a status
 * rebuilt on every pass (new lists, nulls for absent fields) counts as unchanged when it says the same thing, and no
 * write goes out for it. Used wherever a reconciler decides whether to write a status.
 */
public final class SameStatus {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SameStatus() {}

    public static boolean as(Object desired, Object current) {
        return JSON.valueToTree(desired).equals(JSON.valueToTree(current));
    }
}
