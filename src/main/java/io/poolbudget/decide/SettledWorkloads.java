package io.poolbudget.decide;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
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
 * <p>
 * Until it is settled, a Deployment whose status does not count terminating pods ({@code status.terminatingReplicas},
 * Kubernetes 1.35 and later) loses an unmarked pod from its count the moment the pod is told to stop, while the pod
 * may hold its pool until it exits: such pods are remembered here until their grace period is over
 * ({@link #departing}).
 */
public final class SettledWorkloads {
    private final Map<String, Set<String>> uidsByNamespace = new ConcurrentHashMap<>();
    /** By namespace/uid: the unmarked pods last counted, and when each that left since must be gone at the latest. */
    private final Map<String, Leaving> leaving = new ConcurrentHashMap<>();

    private record Leaving(int counted, List<Instant> gone) {}

    public boolean contains(String namespace, String uid) {
        return uid != null && uidsByNamespace.getOrDefault(namespace, Set.of()).contains(uid);
    }

    public void settle(String namespace, String uid) {
        if (uid != null) {
            uidsByNamespace.computeIfAbsent(namespace, ns -> ConcurrentHashMap.newKeySet()).add(uid);
        }
    }

    public void unsettle(String namespace, String uid) {
        if (uid != null) {
            uidsByNamespace.computeIfPresent(namespace, (ns, uids) -> uids.remove(uid) && uids.isEmpty() ? null : uids);
        }
    }

    /**
     * Unmarked pods of a Deployment that left its count ({@code counted} is the count now) and may still be shutting
     * down: each is remembered from the pass that saw it leave until {@code grace} (its terminationGracePeriodSeconds,
     * after which the kubelet has stopped it) has passed. A count that rises again (a scale-up, a rollback) adds none.
     */
    public int departing(String namespace, String uid, int counted, Instant now, Duration grace) {
        if (uid == null) {
            return 0;
        }
        Leaving after = leaving.compute(namespace + "/" + uid, (key, before) -> {
            List<Instant> gone = new ArrayList<>();
            if (before != null) {
                before.gone().stream().filter(now::isBefore).forEach(gone::add);
                for (int i = counted; i < before.counted(); i++) {
                    gone.add(now.plus(grace));
                }
            }
            return counted == 0 && gone.isEmpty() ? null : new Leaving(counted, List.copyOf(gone));
        });
        return after == null ? 0 : after.gone().size();
    }

    /** Forgets the namespace's workloads that are no longer cached (deleted, or recreated with a new uid). */
    public void retain(String namespace, Collection<String> cachedUids) {
        var uids = uidsByNamespace.get(namespace);
        Set<String> cached = Set.copyOf(cachedUids);
        if (uids != null) {
            uids.retainAll(cached);
        }
        leaving.keySet().removeIf(key -> key.startsWith(namespace + "/")
                && !cached.contains(key.substring(namespace.length() + 1)));
    }
}
