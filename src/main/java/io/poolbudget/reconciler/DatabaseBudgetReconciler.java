package io.poolbudget.reconciler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.DatabaseBudgetStatus;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.planning.SharedBudgets;
import io.quarkus.arc.lookup.LookupIfProperty;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A DatabaseBudget's own controller (as Kueue's ClusterQueue has one): its status — the budget, each referencing
 * policy's share and use, what pods outside its admitted policies still hold, a Ready condition and the generation
 * it describes — rebuilt from the caches and written once per change, however many policies draw on it. The
 * policies' passes only read DatabaseBudgets. Registered only where the operator reads DatabaseBudgets (it watches
 * every namespace and shared budgets are on): elsewhere it would need a cluster role that mode does without.
 */
@ControllerConfiguration(name = DatabaseBudgetReconciler.NAME,
        informer = @io.javaoperatorsdk.operator.api.config.informer.Informer(informerListLimit = PrunedStore.LIST_LIMIT))
@LookupIfProperty(name = "poolbudget.shared-budgets.enabled", stringValue = "true", lookupIfMissing = true)
public class DatabaseBudgetReconciler implements Reconciler<DatabaseBudget> {
    public static final String NAME = "databasebudget";
    private final Clock clock = Clock.systemUTC();

    @Override
    public UpdateControl<DatabaseBudget> reconcile(DatabaseBudget budget, Context<DatabaseBudget> context) {
        var policies = cached(context, PoolPolicy.class);
        var shared = new SharedBudgets(context.getPrimaryCache().list().toList(), cached(context, Namespace.class),
                policies, BudgetHoldings.of(InformerCaches.sizedPods(context), policies));
        var previous = budget.getStatus() == null ? null : budget.getStatus().getConditions();
        DatabaseBudgetStatus desired = BudgetStatusAggregator.status(shared, budget, previous, clock);
        if (SameStatus.as(desired, budget.getStatus())) {
            return UpdateControl.noUpdate();
        }
        var patch = new DatabaseBudget();
        patch.setMetadata(new ObjectMetaBuilder().withName(budget.getMetadata().getName()).build());
        patch.setStatus(desired);
        return UpdateControl.patchStatus(patch);
    }

    @SuppressWarnings("unchecked")
    private static <R extends HasMetadata> List<R> cached(Context<DatabaseBudget> context, Class<R> type) {
        return ((InformerEventSource<R, DatabaseBudget>) context.eventSourceRetriever().getEventSourceFor(type))
                .list().toList();
    }

    @Override
    public List<EventSource<?, DatabaseBudget>> prepareEventSources(EventSourceContext<DatabaseBudget> context) {
        // Budgets are few (one per shared database): a policy or namespace change may move a policy into or out of
        // any of them, so it concerns them all. A pod concerns the budgets it records, or its policy's.
        SecondaryToPrimaryMapper<HasMetadata> all = r -> context.getPrimaryCache().list()
                .map(ResourceID::fromResource).collect(Collectors.toSet());
        SecondaryToPrimaryMapper<HasMetadata> recorded = r -> {
            Set<String> names = new java.util.HashSet<>(BudgetHoldings.budgetsOn((Pod) r));
            if (names.isEmpty()) {
                return all.toPrimaryResourceIDs(r); // sized before pods recorded their budget
            }
            return names.stream().map(ResourceID::new).collect(Collectors.toSet());
        };
        return List.of(
                informer(context, PoolPolicy.class, all, null, PoolPolicy.class.getSimpleName().toLowerCase()),
                informer(context, Namespace.class, all, null, "namespace"),
                informer(context, Pod.class, recorded, Owner.SIZED_LABEL, InformerCaches.SIZED_PODS));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <R extends HasMetadata> EventSource<?, DatabaseBudget> informer(
            EventSourceContext<DatabaseBudget> context, Class<R> type, SecondaryToPrimaryMapper<HasMetadata> mapper,
            String labelSelector, String name) {
        var config = InformerEventSourceConfiguration.from(type, DatabaseBudget.class).withName(name)
                .withItemStore(type == PoolPolicy.class ? (PrunedStore) PrunedStore.policiesWithoutExplanations()
                        : new PrunedStore<>()).withInformerListLimit(PrunedStore.LIST_LIMIT)
                .withSecondaryToPrimaryMapper((SecondaryToPrimaryMapper) mapper);
        if (labelSelector != null) {
            config.withLabelSelector(labelSelector);
        }
        return new InformerEventSource<>(config.build(), context);
    }
}
