package io.poolbudget.planning;

import io.fabric8.kubernetes.api.model.Pod;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What the pods the operator sized hold of shared budgets, read from their own annotations: for every policy whose
 * size a pod carries, the DatabaseBudget that size was drawn from ({@link Owner#budgetAnnotation}), the size and the
 * pools per pod. So a pod keeps counting against its budget until it is gone, whatever became of its policy. Pure.
 */
public final class BudgetHoldings {
    private BudgetHoldings() {}

    /**
     * What a sized pod counts at, from its uid, the size it started with and the size published to it in resize mode
     * Live (null where none was): in that mode what its agent confirmed, at max(old, new) while a change is in flight
     * (the decision's {@code LiveResize.holding}, which reads the agents' reports).
     */
    @FunctionalInterface
    public interface Held {
        int size(String uid, int started, Integer published);
    }

    /** The holdings of these pods, each counted at what {@code held} says it holds. */
    public static List<SharedBudgets.Holding> of(Collection<Pod> pods, Collection<PoolPolicy> policies, Held held) {
        Map<String, PoolPolicy> byKey = policies.stream().collect(Collectors.toMap(
                p -> SharedBudgets.namespaceOf(p) + "/" + Owner.of(p).key(), Function.identity(), (a, b) -> a));
        List<SharedBudgets.Holding> holdings = new ArrayList<>();
        for (Pod pod : pods) {
            var meta = pod.getMetadata();
            if (meta.getAnnotations() == null || exited(pod)) {
                continue;
            }
            for (String key : Owner.keysOn(meta)) {
                String budget = Owner.annotation(meta, Owner.BUDGET_PREFIX + key);
                PoolPolicy policy = byKey.get(meta.getNamespace() + "/" + key);
                Integer size = number(Owner.annotation(meta, Owner.SIZE_PREFIX + key));
                Integer published = number(Owner.annotation(meta, Owner.LIVE_PREFIX + key));
                if (size != null) {
                    size = held.size(meta.getUid(), size, published);
                }
                if (size == null || budget == null && (policy == null || SharedBudgets.ref(policy) == null)) {
                    continue; // not a shared budget's pod (or a ConfigMap's label, which carries no size of its own)
                }
                Integer pools = number(Owner.annotation(meta, Owner.POOLS_PREFIX + key));
                holdings.add(new SharedBudgets.Holding(budget, meta.getNamespace(),
                        policy == null ? key : policy.getMetadata().getName(),
                        (long) size * (pools == null ? 1 : pools), meta.getDeletionTimestamp() != null));
            }
        }
        return holdings;
    }

    /** The DatabaseBudgets a pod's pools were drawn from, by its annotations (for waking their policies). */
    public static List<String> budgetsOn(Pod pod) {
        var a = pod.getMetadata().getAnnotations();
        return a == null ? List.of() : a.entrySet().stream().filter(e -> e.getKey().startsWith(Owner.BUDGET_PREFIX))
                .map(Map.Entry::getValue).distinct().toList();
    }

    /** A pod whose containers have all exited (Succeeded or Failed) holds no connection, though it is still listed. */
    private static boolean exited(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    private static Integer number(String value) {
        try {
            return value == null ? null : Integer.valueOf(value.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
