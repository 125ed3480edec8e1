package io.poolbudget.observe;

import io.poolbudget.memory.PolicyMemory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which pod each client address belonged to, per observing policy: the memory that tells a ghost (connections a pod
 * left open when it was lost or killed, held by the server until TCP keepalive notices) from any other client. A
 * reconcile tells it the addresses of the targets' pods it sees ({@link #attribute}); each read of the database
 * judges the addresses it remembers ({@link #judge}): one that no pod has now (any pod, in any namespace: a new pod may
 * have it), where the server still holds connections, was found lost at that read; past the grace its connections
 * opened before the operator last saw its pod live ({@code lastLive}: present and not terminating) are ghosts. That
 * read may come long after the pod went (a database outage, a lost node's pod left terminating until it is
 * force-deleted); a backend opened since then is someone else's, and is never one. A pod other than the remembered one
 * at the address (by uid) makes the address that pod's: the memory of it is dropped. An address it never saw a target's pod hold is never one: an app outside the policy, a
 * host's psql, stay what they are. Kept in the process only (a restarted operator has seen no pod yet), bounded per
 * policy ({@link #REMEMBERED}), forgotten with the policy.
 */
@jakarta.inject.Singleton
public final class Ghosts {
    /** Addresses remembered per policy at most: the oldest not seen in the last pass go first. */
    public static final int REMEMBERED = 4096;

    /** A target's pod at an address: {@code workload} as Kind/name; {@code live}: not terminating. */
    public record Pod(String namespace, String name, String uid, String workload, boolean live) {
        public Pod(String namespace, String name, String uid, String workload) {
            this(namespace, name, uid, workload, true);
        }

        public String text() {
            return namespace + "/" + name + " (" + workload + ")";
        }
    }

    /** A pod at an address, as a read finds it: its uid ("" if it has none) and whether it is live (not terminating). */
    public record Present(String uid, boolean live) {}

    /**
     * An address without its pod past the grace, found so at {@code since}, whose backends opened before
     * {@code lastLive} (when the operator last saw its pod live) are ghosts: {@code warned}: the Warning naming it was
     * sent; {@code refused}: a reap of it was refused and said so.
     */
    public record Suspect(String address, Pod pod, Instant since, Instant lastLive, boolean warned, boolean refused) {}

    private static final class Seen {
        Pod pod;
        Instant lostSince;
        /** When its pod was last seen live: only backends opened before then can be its ghosts (null: never). */
        Instant lastLive;
        boolean warned;
        boolean refused;

        Seen(Pod pod) {
            this.pod = pod;
        }
    }

    private final Map<String, LinkedHashMap<String, Seen>> policies = new ConcurrentHashMap<>();

    /** A memory of its own (tests). */
    public Ghosts() {}

    /** The operator's: a policy's addresses are forgotten with it. */
    @jakarta.inject.Inject
    public Ghosts(PolicyMemory memory) {
        memory.onForget(p -> forget(ObservationSource.key(p)));
    }

    /**
     * The targets' pods a pass sees at {@code now}, by address: each address is theirs (a new pod's replaces the one
     * before).
     */
    public void attribute(String policy, Map<String, Pod> byAddress, Instant now) {
        var seen = policies.computeIfAbsent(policy, k -> new LinkedHashMap<>());
        synchronized (seen) {
            byAddress.forEach((address, pod) -> {
                Seen s = seen.get(address);
                if (s == null || !s.pod.uid().equals(pod.uid())) {
                    seen.remove(address);
                    s = new Seen(pod);
                    seen.put(address, s);
                }
                s.pod = pod;
                s.lostSince = null; // its pod is there (terminating, maybe): its connections are its own
                if (pod.live()) {
                    s.lastLive = now;
                }
            });
            // the oldest not seen now go first, then (a pass of more pods than that) the oldest
            for (var i = seen.entrySet().iterator(); seen.size() > REMEMBERED && i.hasNext();) {
                if (!byAddress.containsKey(i.next().getKey())) {
                    i.remove();
                }
            }
            for (var i = seen.entrySet().iterator(); seen.size() > REMEMBERED && i.hasNext();) {
                i.next();
                i.remove();
            }
        }
    }

    /**
     * The remembered addresses among a read's clients that need a look at the pods: the server holds connections from
     * them and no pod of the namespace's cache ({@code cached}, by address) has them.
     */
    public Set<String> unplaced(String policy, Map<String, Long> byClient, Map<String, Present> cached) {
        var seen = policies.get(policy);
        if (seen == null) {
            return Set.of();
        }
        synchronized (seen) {
            Set<String> wanted = new java.util.HashSet<>();
            seen.keySet().forEach(a -> {
                if (byClient.getOrDefault(a, 0L) > 0 && !cached.containsKey(a)) {
                    wanted.add(a);
                }
            });
            return wanted;
        }
    }

    /**
     * One read judged: {@code cached}, the namespace's cached pods by address; {@code holders}, for the
     * {@link #unplaced} addresses, the pod (in any namespace, not ended) that has each now. An address its pod has is
     * not lost (its pod seen live now if it is not terminating); one another pod has (another uid) is that pod's, and
     * forgotten; one without connections is forgotten; one that no pod has is lost from now on. Returns the lost
     * addresses past the grace whose pod was ever seen live.
     */
    public List<Suspect> judge(String policy, Map<String, Long> byClient, Map<String, Present> cached,
            Map<String, Present> holders, Instant now, Duration grace) {
        var seen = policies.get(policy);
        if (seen == null) {
            return List.of();
        }
        List<Suspect> suspects = new ArrayList<>();
        synchronized (seen) {
            for (Iterator<Map.Entry<String, Seen>> i = seen.entrySet().iterator(); i.hasNext();) {
                var e = i.next();
                String address = e.getKey();
                Seen s = e.getValue();
                Present holder = cached.containsKey(address) ? cached.get(address) : holders.get(address);
                if (holder != null && s.pod.uid().equals(holder.uid())) {
                    s.lostSince = null;
                    s.lastLive = holder.live() ? now : s.lastLive;
                } else if (holder != null || byClient.getOrDefault(address, 0L) == 0) {
                    i.remove();
                } else {
                    s.lostSince = s.lostSince == null ? now : s.lostSince;
                    if (s.lastLive != null && !now.isBefore(s.lostSince.plus(grace))) {
                        suspects.add(new Suspect(address, s.pod, s.lostSince, s.lastLive, s.warned, s.refused));
                    }
                }
            }
        }
        return suspects;
    }

    /** The Warning naming the suspect's ghosts ({@code warned}) or its refused reap ({@code refused}) was sent. */
    public void said(String policy, String address, boolean warned, boolean refused) {
        var seen = policies.get(policy);
        if (seen == null) {
            return;
        }
        synchronized (seen) {
            Seen s = seen.get(address);
            if (s != null) {
                s.warned |= warned;
                s.refused |= refused;
            }
        }
    }

    /** The addresses remembered for the policy, and the pod of each (tests, and bounds). */
    public Map<String, Pod> remembered(String policy) {
        var seen = policies.get(policy);
        if (seen == null) {
            return Map.of();
        }
        synchronized (seen) {
            Map<String, Pod> copy = new HashMap<>();
            seen.forEach((a, s) -> copy.put(a, s.pod));
            return copy;
        }
    }

    /** A pod as a read finds it at its address. */
    public static Present present(io.fabric8.kubernetes.api.model.Pod p) {
        return new Present(p.getMetadata().getUid() == null ? "" : p.getMetadata().getUid(),
                p.getMetadata().getDeletionTimestamp() == null);
    }

    /** Whether a pod has ended (Succeeded or Failed): its address may be another pod's now. */
    public static boolean ended(io.fabric8.kubernetes.api.model.Pod p) {
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    /** The pods by address that have not ended, a live one where two have the same address. */
    public static Map<String, Present> byAddress(java.util.stream.Stream<io.fabric8.kubernetes.api.model.Pod> pods) {
        Map<String, Present> at = new HashMap<>();
        pods.filter(p -> p.getStatus() != null && p.getStatus().getPodIP() != null && !ended(p))
                .forEach(p -> at.merge(
                        p.getStatus().getPodIP(), present(p), (a, b) -> a.live() ? a : b));
        return at;
    }

    public void forget(String policy) {
        policies.remove(policy);
    }
}
