package io.poolbudget.planning;

import io.fabric8.kubernetes.api.model.Namespace;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.sizing.Budget;
import io.poolbudget.sizing.SharedBudget;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The DatabaseBudgets, the namespaces' labels and every PoolPolicy as the caches show them: which policies
 * draw on which budget, each one's share (the same answer for every policy, so together they never exceed
 * the budget), and which of them a raise must wait for. Reads only what it is given.
 */
public final class SharedBudgets implements PolicyPlanner.SharedBudgets {
    private final Map<String, DatabaseBudget> budgets;
    private final Map<String, Namespace> namespaces;
    private final Collection<PoolPolicy> policies;
    private final boolean namespacesKnown;
    private final Collection<Holding> holdings;
    /** Members by budget name: a share, the blockers and the budget's status all ask within one pass. */
    private final Map<String, List<Member>> members = new java.util.HashMap<>();
    private final Map<String, List<Outside>> outside = new java.util.HashMap<>();
    private final BudgetCap.Source caps;

    /**
     * What one pod holds for one policy, as the pod's own annotations say: the DatabaseBudget its pool was sized
     * from (null for a pod sized before pods recorded it: then its policy's current reference decides), its
     * namespace and policy (by name), the connections its pools hold, and whether it is shutting down.
     */
    public record Holding(String budget, String namespace, String policy, long connections, boolean terminating) {}

    /**
     * Pods of one policy that hold connections of a budget while the policy is not one of the budget's admitted
     * members (refused, deleted, or drawing on something else now): they count against the budget until they are
     * gone or hold less.
     */
    public record Outside(String namespace, String policy, int pods, int terminating, long connections, String why) {}

    /** As the operator sees them: every namespace's labels known, and what every sized pod holds. */
    public SharedBudgets(Collection<DatabaseBudget> budgets, Collection<Namespace> namespaces,
            Collection<PoolPolicy> policies,
            Collection<Holding> holdings) {
        this(budgets, namespaces, policies, true, holdings, BudgetCap.Source.NONE);
    }

    /** The same, each budget capped by what {@code caps} allows this cluster of it. */
    public SharedBudgets(Collection<DatabaseBudget> budgets, Collection<Namespace> namespaces,
            Collection<PoolPolicy> policies, Collection<Holding> holdings, BudgetCap.Source caps) {
        this(budgets, namespaces, policies, true, holdings, caps);
    }

    /**
     * {@code namespacesKnown} false (plan without Namespace manifests): every namespace is taken as selected. Later
     * objects of one name replace earlier ones.
     */
    public SharedBudgets(Collection<DatabaseBudget> budgets, Collection<Namespace> namespaces,
            Collection<PoolPolicy> policies,
            boolean namespacesKnown) {
        this(budgets, namespaces, policies, namespacesKnown, List.of(), BudgetCap.Source.NONE);
    }

    private SharedBudgets(Collection<DatabaseBudget> budgets, Collection<Namespace> namespaces,
            Collection<PoolPolicy> policies, boolean namespacesKnown, Collection<Holding> holdings,
            BudgetCap.Source caps) {
        this.caps = caps;
        this.budgets = budgets.stream().collect(Collectors.toMap(b -> b.getMetadata().getName(), Function.identity(),
                (a, b) -> b));
        this.namespaces = namespaces.stream()
                .collect(Collectors.toMap(n -> n.getMetadata().getName(), Function.identity(),
                        (a, b) -> b));
        this.policies = policies;
        this.namespacesKnown = namespacesKnown;
        this.holdings = holdings;
    }

    /** A policy's namespace; "default" where a manifest for plan names none, as kubectl would apply it. */
    public static String namespaceOf(PoolPolicy p) {
        return p.getMetadata().getNamespace() == null ? "default" : p.getMetadata().getNamespace();
    }

    /** A policy that draws on a budget, and what it gets. */
    public record Member(PoolPolicy policy, SharedBudget.Share share) {}

    public static String ref(PoolPolicy p) {
        return p.getSpec() == null || p.getSpec().getDatabaseRef() == null ? null
                : p.getSpec().getDatabaseRef().getName();
    }

    @Override
    public Budget shareOf(PoolPolicy policy) {
        String name = ref(policy);
        DatabaseBudget budget = find(name);
        String refusal = refusal(budget, namespaceOf(policy));
        if (refusal != null) {
            throw new InvalidPolicyException("spec.databaseRef", refusal);
        }
        Member self = members(budget).stream().filter(m -> same(m.policy(), policy)).findFirst()
                .orElseThrow(() -> new IllegalStateException("a live policy is a member of its own budget"));
        long share = self.share().connections();
        return new Budget(share, Budget.Term.SHARE, "this namespace's share of DatabaseBudget " + name + " is "
                + self.share().explanation() + (share == 0 ? "; ask its owner for a larger weight or budget" : ""));
    }

    /** The budget a policy names; throws naming the field when it does not exist. */
    private DatabaseBudget find(String name) {
        DatabaseBudget budget = budgets.get(name);
        if (budget == null) {
            throw new InvalidPolicyException("spec.databaseRef", "names DatabaseBudget " + name + ", which does not "
                    + "exist: create it (kubectl get databasebudgets), or give this policy its own spec.database");
        }
        return budget;
    }

    /** Why a namespace may not draw on the budget; null when it may. */
    public String refusal(DatabaseBudget budget, String namespace) {
        if (!namespacesKnown) {
            return null;
        }
        var selector = budget.getSpec() == null ? null : budget.getSpec().getNamespaceSelector();
        Namespace ns = namespaces.get(namespace);
        Map<String, String> labels = ns == null || ns.getMetadata().getLabels() == null ? Map.of()
                : ns.getMetadata().getLabels();
        boolean selected;
        try {
            selected = selector != null && Workloads.matches(selector, labels);
        } catch (IllegalArgumentException e) {
            throw new InvalidPolicyException(
                    "DatabaseBudget " + budget.getMetadata().getName() + " spec.namespaceSelector",
                    e.getMessage());
        }
        if (selected) {
            return null;
        }
        return "DatabaseBudget " + budget.getMetadata().getName() + " does not admit namespace " + namespace
                + (selector == null ? " (it has no namespaceSelector)" : " (its namespaceSelector is "
                        + Workloads.describe(selector) + ")")
                + ": ask its owner to select this namespace, or give this policy "
                + "its own spec.database";
    }

    /** Every live policy the budget admits, with its share. */
    public List<Member> members(DatabaseBudget budget) {
        String name = budget.getMetadata().getName();
        List<Member> known = members.get(name);
        if (known != null) {
            return known;
        }
        Map<String, PoolPolicy> admitted = new java.util.LinkedHashMap<>();
        policies.stream().filter(p -> name.equals(ref(p)) && p.getMetadata().getDeletionTimestamp() == null
                && refusal(budget, namespaceOf(p)) == null).forEach(p -> admitted.put(id(p), p));
        List<SharedBudget.Claimant> claimants = admitted.values().stream().map(p -> new SharedBudget.Claimant(
                namespaceOf(p), p.getMetadata().getName(), weight(budget, namespaceOf(p)))).toList();
        List<Member> split = SharedBudget.split(available(budget, admitted.keySet()), claimants).stream()
                .map(s -> new Member(admitted.get(s.namespace() + "/" + s.policy()), s)).toList();
        members.put(name, split);
        return split;
    }

    /** The budget less what pods outside its admitted policies hold: what the admitted ones may split. */
    private Budget available(DatabaseBudget budget, Set<String> admitted) {
        Budget whole = capped(budget, total(budget), admitted);
        List<Outside> rows = outside(budget, admitted);
        long held = rows.stream().mapToLong(Outside::connections).sum();
        if (held == 0) {
            return whole;
        }
        long left = Math.max(0, whole.connections() - held);
        return new Budget(left, whole.term(),
                left + " = " + whole.connections() + " − " + held + " held by pods outside "
                        + "its admitted policies ("
                        + rows.stream().map(o -> o.namespace() + "/" + o.policy() + " " + o.connections()
                                + ", " + o.why()).collect(Collectors.joining("; "))
                        + "), where " + whole.explanation());
    }

    /** The budget as {@link #caps} allows this cluster of it. */
    private Budget capped(DatabaseBudget budget, Budget whole, Set<String> admitted) {
        BudgetCap cap = caps.of(budget);
        return cap == null ? whole : cap.apply(whole, admitted.stream().map(byId()::get)
                .mapToLong(BudgetCap::planned).sum());
    }

    /**
     * The pods that hold connections of this budget outside its admitted policies, by policy: what they hold counts
     * against the budget until they are gone or hold less, whatever became of their policy.
     */
    public List<Outside> outside(DatabaseBudget budget) {
        List<Outside> known = outside.get(budget.getMetadata().getName());
        if (known != null) {
            return known;
        }
        members(budget);
        return outside.get(budget.getMetadata().getName());
    }

    private List<Outside> outside(DatabaseBudget budget, Set<String> admitted) {
        String name = budget.getMetadata().getName();
        Map<String, long[]> byPolicy = new java.util.TreeMap<>(); // pods, terminating, connections
        for (Holding h : holdings) {
            String key = h.namespace() + "/" + h.policy();
            PoolPolicy policy = byId().get(key);
            String drawsOn = h.budget() != null ? h.budget() : policy == null ? null : ref(policy);
            if (!name.equals(drawsOn) || admitted.contains(key)) {
                continue;
            }
            long[] sum = byPolicy.computeIfAbsent(key, k -> new long[3]);
            sum[0]++;
            sum[1] += h.terminating() ? 1 : 0;
            sum[2] += h.connections();
        }
        List<Outside> rows = new ArrayList<>();
        byPolicy.forEach((key, sum) -> {
            String ns = key.substring(0, key.indexOf('/'));
            String policy = key.substring(key.indexOf('/') + 1);
            rows.add(new Outside(ns, policy, (int) sum[0], (int) sum[1], sum[2], why(budget, byId().get(key))));
        });
        outside.put(name, List.copyOf(rows));
        return outside.get(name);
    }

    /** Why a policy's pods hold connections of the budget from outside it. */
    private String why(DatabaseBudget budget, PoolPolicy policy) {
        if (policy == null) {
            return "its PoolPolicy is gone";
        }
        if (policy.getMetadata().getDeletionTimestamp() != null) {
            return "its PoolPolicy is being deleted";
        }
        String ref = ref(policy);
        if (ref == null) {
            return "its PoolPolicy has its own spec.database now";
        }
        if (!ref.equals(budget.getMetadata().getName())) {
            return "its PoolPolicy draws on DatabaseBudget " + ref + " now";
        }
        return "namespace " + namespaceOf(policy) + " is not selected";
    }

    private Map<String, PoolPolicy> byId;

    private Map<String, PoolPolicy> byId() {
        if (byId == null) {
            byId = policies.stream().collect(Collectors.toMap(SharedBudgets::id, Function.identity(), (a, b) -> b));
        }
        return byId;
    }

    /** The whole budget; throws naming the DatabaseBudget's field when its database section is invalid. */
    public static Budget total(DatabaseBudget budget) {
        var spec = budget.getSpec();
        if (spec != null && spec.getDatabase() != null && spec.getDatabase().getObserve() != null) {
            // the CRD's CEL rule, for plan
            throw new InvalidPolicyException(
                    "DatabaseBudget " + budget.getMetadata().getName() + " spec.database.observe",
                    "is not available on a DatabaseBudget (its credentials Secret lives in a namespace): remove it");
        }
        return Budget.of(PolicyPlanner.database(budget.getSpec() == null ? null : budget.getSpec().getDatabase(),
                "DatabaseBudget " + budget.getMetadata().getName() + " spec.database"));
    }

    private static int weight(DatabaseBudget budget, String namespace) {
        var spec = budget.getSpec();
        Optional<Integer> listed = spec.getNamespaces() == null ? Optional.empty() : spec.getNamespaces().stream()
                .filter(n -> namespace.equals(n.getName()) && n.getWeight() != null).map(n -> n.getWeight())
                .findFirst();
        return listed.orElse(spec.getDefaultWeight() == null ? 1 : spec.getDefaultWeight());
    }

    /**
     * What a raise of {@code self} must wait for in the other policies of its budget, in every namespace: one still
     * planning with more than its share now, one whose pods hold more than its share, one rolling out, or one not
     * planned yet. So when shares move between namespaces, the shrinking side rolls out first.
     */
    public List<String> blockers(PoolPolicy self) {
        String name = ref(self);
        if (name == null || !budgets.containsKey(name)) {
            return List.of();
        }
        List<String> blockers = new ArrayList<>();
        for (Outside o : outside(budgets.get(name))) {
            if (o.terminating() > 0) {
                blockers.add(
                        o.terminating() + " pod(s) of PoolPolicy " + o.namespace() + "/" + o.policy() + " (" + o.why()
                                + ") still hold connections of DatabaseBudget " + name + " while they shut down");
            }
        }
        for (Member m : members(budgets.get(name))) {
            PoolPolicy other = m.policy();
            if (same(other, self)) {
                continue;
            }
            String id = "PoolPolicy " + id(other) + " (DatabaseBudget " + name + ")";
            var st = other.getStatus();
            long share = m.share().connections();
            if (st == null || st.getBudget() == null || st.getBudget().getConnections() == null) {
                blockers.add(id + " has not been planned yet");
            } else if (st.getBudget().getConnections() > share) {
                blockers.add(
                        id + " still plans with " + st.getBudget().getConnections() + ", its share is now " + share);
            } else if (Boolean.TRUE.equals(st.getLiveConnectionsUnbounded())) {
                blockers.add(id + " has pods not sized yet that may open any number of connections (no pool limit), "
                        + "more than its share " + share);
            } else if (st.getLiveConnections() != null && st.getLiveConnections() > share) {
                blockers.add(id + " holds " + st.getLiveConnections() + " connections, more than its share " + share);
            } else if (st.getTargets() != null
                    && st.getTargets().stream().anyMatch(t -> "Rolling".equals(t.getState()))) {
                blockers.add(id + " is rolling out");
            } else if (st.getTargets() != null
                    && st.getTargets().stream().anyMatch(t -> "Stalled".equals(t.getState()))) {
                blockers.add(id + " has a rollout that is not progressing");
            }
        }
        return blockers;
    }

    /** The policies that name this budget, admitted or not. */
    public List<PoolPolicy> referencing(DatabaseBudget budget) {
        return policies.stream().filter(p -> budget.getMetadata().getName().equals(ref(p))).toList();
    }

    public static boolean same(PoolPolicy a, PoolPolicy b) {
        return id(a).equals(id(b));
    }

    private static String id(PoolPolicy p) {
        return namespaceOf(p) + "/" + p.getMetadata().getName();
    }
}
