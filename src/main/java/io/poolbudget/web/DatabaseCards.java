package io.poolbudget.web;

import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.planning.SharedBudgets;
import io.poolbudget.web.DashboardView.PolicyView;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The dashboard by database: one card per DatabaseBudget, with the whole budget, each namespace's weight and share, the
 * connections held outside its admitted policies and the policies drawing on it nested; and one per policy with a
 * database of its own. Read from the DatabaseBudgets' status as the operator wrote it, like the policies'.
 */
final class DatabaseCards {
    /** A policy drawing on a DatabaseBudget: its namespace's weight, its share and what it allocates and holds. */
    public record ShareView(String namespace, String policy, Integer weight, Long share, Long allocated, Long live,
            boolean liveAnyNumber, String refused) {}

    /** Pods sized from the budget whose policy is not admitted (deleted, refused, moved). */
    public record HeldView(String namespace, String policy, Integer pods, Long connections, String reason) {}

    /**
     * {@code kind} DatabaseBudget (then {@code name} is the budget's, and the figures are the whole database's) or
     * PoolPolicy (a policy's own database: its figures are the policy's card).
     */
    public record DatabaseView(String key, String kind, String name, Long budget, String budgetExplanation,
            Long allocated, Long live, boolean liveAnyNumber, Long heldOutside, List<ShareView> shares,
            List<HeldView> outside, List<PolicyView> policies, io.poolbudget.api.v1alpha1.LedgerStatus ledger,
            String ledgerProblem) {}

    private DatabaseCards() {}

    /** What the cards are sorted and grouped by: the DatabaseBudget's name, or the policy's own key. */
    static String key(PoolPolicy p) {
        String ref = SharedBudgets.ref(p);
        return ref != null ? "DatabaseBudget/" + ref
                : "PoolPolicy/" + p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    }

    /** The page's policies, in their order, grouped into one card per database. */
    static List<DatabaseView> of(List<PoolPolicy> shown, List<PolicyView> views, Collection<DatabaseBudget> budgets) {
        Map<String, DatabaseBudget> byName = budgets.stream()
                .collect(Collectors.toMap(b -> b.getMetadata().getName(), Function.identity(), (a, b) -> a));
        Map<String, List<PolicyView>> grouped = new LinkedHashMap<>();
        Map<String, PoolPolicy> first = new LinkedHashMap<>();
        for (int i = 0; i < shown.size(); i++) {
            String key = key(shown.get(i));
            grouped.computeIfAbsent(key, k -> new ArrayList<>()).add(views.get(i));
            first.putIfAbsent(key, shown.get(i));
        }
        List<DatabaseView> cards = new ArrayList<>(grouped.size());
        grouped.forEach((key, policies) -> {
            String ref = SharedBudgets.ref(first.get(key));
            cards.add(ref == null ? own(key, policies.get(0)) : shared(key, ref, byName.get(ref), policies));
        });
        return cards;
    }

    private static DatabaseView own(String key, PolicyView p) {
        return new DatabaseView(key, "PoolPolicy", p.database() != null ? p.database() : p.name(), p.budget(),
                p.budgetExplanation(), p.allocated(), p.live(), p.liveAnyNumber(), null, List.of(), List.of(),
                List.of(p), null, null);
    }

    private static DatabaseView shared(String key, String name, DatabaseBudget b, List<PolicyView> policies) {
        var st = b == null ? null : b.getStatus();
        if (st == null) { // not cached (shared budgets off here) or not reconciled yet: the policies alone
            return new DatabaseView(key, "DatabaseBudget", name, null, null, null, null, false, null, List.of(),
                    List.of(), policies, null, null);
        }
        Map<String, Integer> weights = new LinkedHashMap<>();
        if (b.getSpec() != null && b.getSpec().getNamespaces() != null) {
            b.getSpec().getNamespaces().forEach(w -> weights.put(w.getName(), w.getWeight()));
        }
        Integer byDefault = b.getSpec() == null ? null : b.getSpec().getDefaultWeight();
        List<ShareView> shares = st.getPolicies().stream().map(s -> new ShareView(s.getNamespace(), s.getName(),
                weights.getOrDefault(s.getNamespace(), byDefault), s.getShare(), s.getAllocated(), s.getLive(),
                Boolean.TRUE.equals(s.getLiveUnbounded()), s.getRefused())).toList();
        List<HeldView> outside = st.getOutside().stream().map(h -> new HeldView(h.getNamespace(), h.getPolicy(),
                h.getPods(), h.getConnections(), h.getReason())).toList();
        var budget = st.getBudget();
        return new DatabaseView(key, "DatabaseBudget", name, budget == null ? null : budget.getConnections(),
                budget == null ? null : budget.getExplanation(), st.getAllocated(), st.getLiveConnections(),
                Boolean.TRUE.equals(st.getLiveConnectionsUnbounded()), st.getHeldOutside(), shares, outside, policies,
                st.getLedger(), st.getConditions().stream().filter(c -> "LedgerSynced".equals(c.getType())
                        && "False".equals(c.getStatus())).map(c -> c.getMessage()).findFirst().orElse(null));
    }
}
