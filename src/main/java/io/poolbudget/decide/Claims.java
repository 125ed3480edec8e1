package io.poolbudget.decide;

import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.planning.InvalidPolicyException;
import io.poolbudget.planning.PolicyPlanner;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which variables other policies of the namespace write into which workloads. Two policies may size
 * one workload (a primary's pool and a replica's) as long as they write different variables; the same
 * variable of the same container claimed twice is a conflict, and neither policy writes that
 * workload until one lets it go. Reads only the view; a claim does not depend on the claimant's
 * database section or sizing.
 */
public final class Claims {
    /** One other policy's writes into one workload, as "container/VARIABLE". */
    public record Claim(String policy, Set<String> writes) {}

    private Claims() {}

    /** What a policy with this injection writes into these containers. */
    public static Set<String> writes(InjectionSpec spec, List<String> containers) {
        Set<String> writes = new TreeSet<>();
        if (io.poolbudget.api.v1alpha1.InjectionMode.of(spec) == io.poolbudget.api.v1alpha1.InjectionMode.EnvFrom) {
            return writes; // only its own ConfigMap: two policies' ConfigMaps meet in a container by prefix (EnvFromCheck)
        }
        for (String c : containers) {
            Injection.EnvNames.of(spec).all().forEach(v -> writes.add(c + "/" + v));
        }
        return writes;
    }

    /** Claims of the other live policies that would write something, by workload id, sorted by policy name. */
    public static Map<String, List<Claim>> byOthers(PoolPolicy self, Collection<PoolPolicy> neighbours,
            ClusterView view) {
        Map<String, List<Claim>> claimed = new HashMap<>();
        for (PoolPolicy other : neighbours) {
            InjectionSpec injection = other.getSpec() == null ? null : other.getSpec().getInjection();
            if (other.getMetadata().getName().equals(self.getMetadata().getName())
                    || other.getMetadata().getDeletionTimestamp() != null || injection == null) {
                continue;
            }
            try {
                for (var t : PolicyPlanner.resolve(other, view).targets()) {
                    List<String> containers;
                    try {
                        containers = InjectionReads.containers(injection, view.template(t.workload()).getSpec());
                    } catch (IllegalArgumentException e) {
                        continue; // it names a container the workload lacks: it writes nothing there, and says so
                    }
                    claimed.computeIfAbsent(t.workload().id(), k -> new ArrayList<>())
                            .add(new Claim(other.getMetadata().getName(), writes(injection, containers)));
                }
            } catch (InvalidPolicyException e) {
                // a neighbour whose targets cannot be resolved claims nothing; it reports its own problem
            }
        }
        claimed.values().forEach(l -> l.sort(Comparator.comparing(Claim::policy)));
        return claimed;
    }

    /** Null when no other claim shares a variable with {@code mine}, else the problem, naming both. */
    public static String conflict(Set<String> mine, List<Claim> others) {
        if (others == null) {
            return null;
        }
        for (Claim other : others) {
            Set<String> shared = new TreeSet<>(mine);
            shared.retainAll(other.writes());
            if (!shared.isEmpty()) {
                return "also claimed by PoolPolicy " + other.policy() + ", which writes the same variables ("
                        + String.join(", ", shared.stream().map(Claims::describe).toList())
                        + "): neither policy writes "
                        + "it until one lets it go. Two policies may size one workload when they write different "
                        + "variables: name others in spec.injection (maxPoolSizeEnv, minIdleEnv)";
            }
        }
        return null;
    }

    private static String describe(String write) {
        int slash = write.indexOf('/');
        return write.substring(slash + 1) + " in container '" + write.substring(0, slash) + "'";
    }
}
