package io.poolbudget.controller;

import io.poolbudget.config.ListPages;
import io.poolbudget.cache.InformerCaches;
import io.poolbudget.cache.PrunedStore;
import io.poolbudget.cache.SharedCaches;
import io.poolbudget.config.ControllerNames;
import io.poolbudget.planning.Owner;
import io.poolbudget.planning.BudgetHoldings;
import io.poolbudget.status.BudgetStatusAggregator;
import io.poolbudget.write.StatusWriter;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
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
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
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
@ControllerConfiguration(name = ControllerNames.BUDGET, informer = @io.javaoperatorsdk.operator.api.config.informer.Informer(informerListLimit = ListPages.LIMIT))
@LookupIfProperty(name = "poolbudget.shared-budgets.enabled", stringValue = "true", lookupIfMissing = true)
public class DatabaseBudgetReconciler implements Reconciler<DatabaseBudget> {
    private final Clock clock = Clock.systemUTC();
    private final SharedCaches caches;
    private final boolean shared;

    /**
     * Where the policy controller watches every namespace, its caches of policies, namespaces and sized pods are
     * read ({@link SharedCaches}); elsewhere this controller watches them itself.
     */
    private final io.poolbudget.observe.AgentScraper agents;

    private final io.poolbudget.ledger.LedgerSync ledgers;

    public DatabaseBudgetReconciler(SharedCaches caches, io.poolbudget.observe.AgentScraper agents,
            io.poolbudget.ledger.LedgerSync ledgers) {
        this.ledgers = ledgers;
        this.caches = caches;
        this.agents = agents;
        this.shared = caches.active();
    }

    @Override
    public UpdateControl<DatabaseBudget> reconcile(DatabaseBudget budget, Context<DatabaseBudget> context) {
        if (shared && !caches.synced()) {
            return UpdateControl.<DatabaseBudget>noUpdate().rescheduleAfter(1000); // the policy controller is starting
        }
        var policies = shared ? caches.policies() : cached(context, PoolPolicy.class);
        var pods = shared ? caches.sizedPods() : InformerCaches.sizedPods(context);
        var budgets = new SharedBudgets(context.getPrimaryCache().list().toList(),
                shared ? caches.namespaces() : cached(context, Namespace.class), policies,
                BudgetHoldings.of(pods, policies, io.poolbudget.decide.LiveResize.holding(agents::report)), ledgers);
        var previous = budget.getStatus() == null ? null : budget.getStatus().getConditions();
        DatabaseBudgetStatus desired = BudgetStatusAggregator.status(budgets, budget, previous, clock);
        if (budget.getSpec() != null && budget.getSpec().getLedger() != null) {
            io.poolbudget.ledger.LedgerConditions.add(desired, ledgers.state(budget.getMetadata().getName()), previous,
                    clock);
        }
        StatusWriter.write(budget, desired, context, DatabaseBudget::new);
        return UpdateControl.noUpdate();
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
        java.util.function.Supplier<Set<ResourceID>> every = () -> context.getPrimaryCache().list()
                .map(ResourceID::fromResource).collect(Collectors.toSet());
        java.util.function.Function<Pod, Set<ResourceID>> recorded = pod -> {
            Set<String> names = new java.util.HashSet<>(BudgetHoldings.budgetsOn(pod));
            if (names.isEmpty()) {
                return every.get(); // sized before pods recorded their budget
            }
            return names.stream().map(ResourceID::new).collect(Collectors.toSet());
        };
        var ledgerTicks = new SimpleInboundEventSource<DatabaseBudget>("ledger-ticks");
        ledgers.start(() -> context.getPrimaryCache().list(), name -> ledgerTicks.propagateEvent(new ResourceID(name)));
        if (shared) {
            var source = new SimpleInboundEventSource<DatabaseBudget>("policy-controller-caches");
            caches.listen(new SharedCaches.Listener() {
                @Override
                public void policyOrNamespace() {
                    every.get().forEach(source::propagateEvent);
                }

                @Override
                public void pod(Pod was, Pod now) {
                    PrunedStore.concerning(was, now, recorded).forEach(source::propagateEvent);
                }
            });
            return List.of(source, ledgerTicks);
        }
        SecondaryToPrimaryMapper<HasMetadata> all = r -> every.get();
        return List.of(
                informer(context, PoolPolicy.class, all, null, PoolPolicy.class.getSimpleName().toLowerCase()),
                informer(context, Namespace.class, all, null, "namespace"),
                informer(context, Pod.class, r -> recorded.apply((Pod) r), Owner.SIZED_LABEL,
                        InformerCaches.SIZED_PODS),
                ledgerTicks);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <R extends HasMetadata> EventSource<?, DatabaseBudget> informer(
            EventSourceContext<DatabaseBudget> context, Class<R> type, SecondaryToPrimaryMapper<HasMetadata> mapper,
            String labelSelector, String name) {
        var config = InformerEventSourceConfiguration.from(type, DatabaseBudget.class).withName(name)
                .withItemStore(type == PoolPolicy.class ? (PrunedStore) PrunedStore.policiesWithoutExplanations()
                        : new PrunedStore<>())
                .withInformerListLimit(ListPages.LIMIT)
                .withSecondaryToPrimaryMapper((SecondaryToPrimaryMapper) mapper);
        if (labelSelector != null) {
            config.withLabelSelector(labelSelector);
        }
        return new InformerEventSource<>(config.build(), context);
    }
}
