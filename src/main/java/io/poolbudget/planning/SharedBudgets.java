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
    /** Members by budget name: a share, the blockers and the budget's status all ask within one pass. */
    private final Map<String, List<Member>> members = new java.util.HashMap<>();

    /** As the operator sees them: every namespace's labels known. */
    public SharedBudgets(Collection<DatabaseBudget> budgets, Collection<Namespace> namespaces, Collection<PoolPolicy> policies) {
        this(budgets, namespaces, policies, true);
    }

    /**
     * {@code namespacesKnown} false (plan without Namespace manifests): every namespace is taken as selected. Later
     * objects of one name replace earlier ones.
     */
    public SharedBudgets(Collection<DatabaseBudget> budgets, Collection<Namespace> namespaces, Collection<PoolPolicy> policies,
                         boolean namespacesKnown) {
        this.budgets = budgets.stream().collect(Collectors.toMap(b -> b.getMetadata().getName(), Function.identity(),
                (a, b) -> b));
        this.namespaces = namespaces.stream().collect(Collectors.toMap(n -> n.getMetadata().getName(), Function.identity(),
                (a, b) -> b));
        this.policies = policies;
        this.namespacesKnown = namespacesKnown;
    }

    /** A policy's namespace; "default" where a manifest for plan names none, as kubectl would apply it. */
    public static String namespaceOf(PoolPolicy p) {
        return p.getMetadata().getNamespace() == null ? "default" : p.getMetadata().getNamespace();
    }

    /** A policy that draws on a budget, and what it gets. */
    public record Member(PoolPolicy policy, SharedBudget.Share share) {}

    public static String ref(PoolPolicy p) {
        return p.getSpec() == null || p.getSpec().getDatabaseRef() == null ? null : p.getSpec().getDatabaseRef().getName();
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
        return new Budget(self.share().connections(), Budget.Term.SHARE, "DatabaseBudget " + name + ": "
                + self.share().explanation());
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
        Map<String, String> labels = ns == null || ns.getMetadata().getLabels() == null ? Map.of() : ns.getMetadata().getLabels();
        if (selector != null && Workloads.matches(selector, labels)) {
            return null;
        }
        return "DatabaseBudget " + budget.getMetadata().getName() + " does not admit namespace " + namespace
                + (selector == null ? " (it has no namespaceSelector)" : " (its namespaceSelector is "
                + Workloads.describe(selector) + ")") + ": ask its owner to select this namespace, or give this policy "
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
        List<Member> split = SharedBudget.split(total(budget), claimants).stream()
                .map(s -> new Member(admitted.get(s.namespace() + "/" + s.policy()), s)).toList();
        members.put(name, split);
        return split;
    }

    /** The whole budget; throws naming the DatabaseBudget's field when its database section is invalid. */
    public static Budget total(DatabaseBudget budget) {
        var spec = budget.getSpec();
        if (spec != null && spec.getDatabase() != null && spec.getDatabase().getObserve() != null) {
            // the CRD's CEL rule, for plan
            throw new InvalidPolicyException("DatabaseBudget " + budget.getMetadata().getName() + " spec.database.observe",
                    "is not available on a DatabaseBudget (its credentials Secret lives in a namespace): remove it");
        }
        return Budget.of(PolicyPlanner.database(budget.getSpec() == null ? null : budget.getSpec().getDatabase(),
                "DatabaseBudget " + budget.getMetadata().getName() + " spec.database"));
    }

    private static int weight(DatabaseBudget budget, String namespace) {
        var spec = budget.getSpec();
        Optional<Integer> listed = spec.getNamespaces() == null ? Optional.empty() : spec.getNamespaces().stream()
                .filter(n -> namespace.equals(n.getName()) && n.getWeight() != null).map(n -> n.getWeight()).findFirst();
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
                blockers.add(id + " still plans with " + st.getBudget().getConnections() + ", its share is now " + share);
            } else if (st.getLiveConnections() != null && st.getLiveConnections() > share) {
                blockers.add(id + " holds " + st.getLiveConnections() + " connections, more than its share " + share);
            } else if (st.getTargets() != null && st.getTargets().stream().anyMatch(t -> "Rolling".equals(t.getState()))) {
                blockers.add(id + " is rolling out");
            }
        }
        return blockers;
    }

    public DatabaseBudget budgetOf(PoolPolicy policy) {
        return budgets.get(ref(policy));
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
