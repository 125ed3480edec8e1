package io.poolbudget.decide;

import java.util.Map;

/**
 * What a pass reads for the demand allocation besides the cluster view: the policy's {@link DemandState} from the
 * process's memory, and the database's connections in use by client address (observe's inUseByClient where clients
 * are told apart by address; empty where they are not, or the read did not count them) with the labels of pods the
 * informer does not cache, by address, to attribute them to targets as status.observed does.
 */
public record DemandInput(DemandState state, Map<String, Long> inUseByAddress,
        Map<String, Map<String, String>> clientPods) {
    public static final DemandInput NONE = new DemandInput(DemandState.EMPTY, Map.of(), Map.of());
}
