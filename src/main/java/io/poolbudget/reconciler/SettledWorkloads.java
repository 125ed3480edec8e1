package io.poolbudget.reconciler;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The workloads this operator process has seen rolled out at a pod template it sized: every pod they run now was
 * made from a sized template, so carries the marker the pod informer selects, so is cached. Until a workload is
 * settled, its pods the informer does not cache (started before it was first sized) are counted from its status;
 * once settled, none can exist, and the status is not read for them. That matters because the status lags the
 * pods: a pod that has finished terminating is gone from the informer while the status may still count it for a
 * moment, and a routine rollout was then reported as over the budget, by a pool at the app's default that no pod
 * held. A workload whose template is not sized (a rollback to a revision from before, a template the user replaced)
 * is unsettled again. Kept in memory: after a restart a workload is counted from its status until seen rolled out.
 */
final class SettledWorkloads {
    private final Map<String, Set<String>> uidsByNamespace = new ConcurrentHashMap<>();

    boolean contains(String namespace, String uid) {
        return uid != null && uidsByNamespace.getOrDefault(namespace, Set.of()).contains(uid);
    }

    void settle(String namespace, String uid) {
        if (uid != null) {
            uidsByNamespace.computeIfAbsent(namespace, ns -> ConcurrentHashMap.newKeySet()).add(uid);
        }
    }

    void unsettle(String namespace, String uid) {
        if (uid != null) {
            uidsByNamespace.computeIfPresent(namespace, (ns, uids) -> uids.remove(uid) && uids.isEmpty() ? null : uids);
        }
    }

    /** Forgets the namespace's workloads that are no longer cached (deleted, or recreated with a new uid). */
    void retain(String namespace, Collection<String> cachedUids) {
        var uids = uidsByNamespace.get(namespace);
        if (uids != null) {
            uids.retainAll(Set.copyOf(cachedUids));
        }
    }
}
