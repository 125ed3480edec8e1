package io.poolbudget.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.cache.NamespacePolicies;
import io.poolbudget.cache.WorkloadInterest;
import io.poolbudget.planning.Owner;
import io.poolbudget.planning.BudgetHoldings;
import io.poolbudget.planning.SharedBudgets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Which policies an event of each kind concerns: the mappers of {@link PolicyEventSources}. */
final class PolicyMappers {
    private final EventSourceContext<PoolPolicy> context;
    private final NamespacePolicies policies;
    private final boolean sharedBudgets;

    PolicyMappers(EventSourceContext<PoolPolicy> context, NamespacePolicies policies, boolean sharedBudgets) {
        this.context = context;
        this.policies = policies;
        this.sharedBudgets = sharedBudgets;
    }

    /** An HPA change may concern any policy of its namespace (the workload it scales is read by name); they are few. */
    SecondaryToPrimaryMapper<HasMetadata> namespacePolicies() {
        return r -> policies.in(context.getPrimaryCache(), r.getMetadata().getNamespace())
                .map(ResourceID::fromResource).collect(Collectors.toSet());
    }

    /**
     * A workload change concerns only the policies of its namespace that read it or sized it (WorkloadInterest), not
     * the others: with 40,000 Deployments no policy reads beside 1,000 policies, a restart's events went from 51,000 to
     * 11,000, and a rollout of a workload no policy reads no longer runs a pass of its namespace's.
     */
    SecondaryToPrimaryMapper<HasMetadata> workloadPolicies() {
        return r -> policies.in(context.getPrimaryCache(), r.getMetadata().getNamespace())
                .filter(p -> WorkloadInterest.concerns(p, r)).map(ResourceID::fromResource).collect(Collectors.toSet());
    }

    /** A DatabaseBudget concerns the policies that draw on it. */
    SecondaryToPrimaryMapper<HasMetadata> budgetPolicies() {
        return r -> drawingOn(r.getMetadata().getName());
    }

    /**
     * A policy concerns its namespace's policies (claims) and, where it draws on a shared budget, every other policy
     * of that budget, in any namespace (shares and shrink-first ordering span them).
     */
    SecondaryToPrimaryMapper<HasMetadata> policiesAndPeers() {
        var namespace = namespacePolicies();
        return r -> {
            Set<ResourceID> ids = new HashSet<>(namespace.toPrimaryResourceIDs(r));
            String ref = r instanceof PoolPolicy p ? SharedBudgets.ref(p) : null;
            if (ref != null) {
                ids.addAll(drawingOn(ref));
            }
            return ids;
        };
    }

    /** A namespace's labels concern its policies that draw on a shared budget (their admission). */
    SecondaryToPrimaryMapper<HasMetadata> referencingPolicies() {
        return r -> context.getPrimaryCache().list(r.getMetadata().getName(), p -> SharedBudgets.ref(p) != null)
                .map(ResourceID::fromResource).collect(Collectors.toSet());
    }

    /**
     * A pod or ConfigMap concerns the policies whose keys it carries (Owner): its pool-size annotations, or the
     * ConfigMap's policy label.
     */
    SecondaryToPrimaryMapper<HasMetadata> sizedBy() {
        return r -> {
            List<String> keys = Owner.keysOn(r.getMetadata());
            return keys.isEmpty() ? Set.of() : policies.in(context.getPrimaryCache(), r.getMetadata().getNamespace())
                    .filter(p -> keys.contains(Owner.of(p).key()) || keys.contains(p.getMetadata().getName()))
                    .map(ResourceID::fromResource).collect(Collectors.toSet());
        };
    }

    /**
     * A sized pod concerns the policies that sized it; one that holds a shared budget's connections from outside its
     * admitted policies, every policy of that budget too: what it holds is reserved, and a raise waits while it shuts
     * down.
     */
    SecondaryToPrimaryMapper<HasMetadata> pods() {
        var sizedBy = sizedBy();
        if (!sharedBudgets) {
            return sizedBy;
        }
        return r -> {
            Set<ResourceID> ids = sizedBy.toPrimaryResourceIDs(r);
            if (r instanceof Pod pod) {
                for (String budget : BudgetHoldings.budgetsOn(pod)) {
                    if (!admittedOwner(pod, budget)) {
                        ids = new HashSet<>(ids);
                        ids.addAll(drawingOn(budget));
                    }
                }
            }
            return ids;
        };
    }

    private boolean admittedOwner(Pod pod, String budget) {
        return policies.in(context.getPrimaryCache(), pod.getMetadata().getNamespace())
                .anyMatch(p -> budget.equals(pod.getMetadata().getAnnotations().get(Owner.of(p).budgetAnnotation()))
                        && budget.equals(SharedBudgets.ref(p)) && p.getStatus() != null
                        && p.getStatus().getBudget() != null);
    }

    private Set<ResourceID> drawingOn(String budget) {
        return policies.drawingOn(context.getPrimaryCache(), budget).map(ResourceID::fromResource)
                .collect(Collectors.toSet());
    }
}
