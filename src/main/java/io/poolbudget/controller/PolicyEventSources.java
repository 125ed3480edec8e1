package io.poolbudget.controller;

import io.poolbudget.config.ListPages;
import io.poolbudget.cache.InformerCaches;
import io.poolbudget.cache.NamespacePolicies;
import io.poolbudget.cache.PrunedStore;
import io.poolbudget.cache.SharedCaches;
import io.poolbudget.decide.WorkloadShapes;
import io.poolbudget.planning.Owner;
import io.poolbudget.observe.ObservationSource;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.PrimaryToSecondaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.ManagedInformerEventSource;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.observe.DatabaseReader;
import java.util.List;
import java.util.Set;

/**
 * What a PoolPolicy's pass reads and what wakes it: the informers on workloads, HPAs, PodDisruptionBudgets, sized pods, their ConfigMaps,
 * DatabaseBudgets and namespaces, each with the mapper from its events to the policies they concern, the stores that
 * keep only what sizing reads ({@link PrunedStore}), what wakes a policy's neighbours ({@link #neighbours}), and the
 * database observation. The policies, namespaces and sized pods cached here are the DatabaseBudget controller's too,
 * and the policies and DatabaseBudgets the dashboard's ({@link SharedCaches}).
 */
public final class PolicyEventSources {
    private final NamespacePolicies policies;
    private final boolean sharedBudgets;
    private final KubernetesClient client;
    private final DatabaseReader reader;
    private final SharedCaches caches;
    private final io.poolbudget.observe.AgentScraper agents;
    /** Argo Rollouts' API was served when the operator started (its Rollouts are watched only then). */
    private final boolean argoRollouts;
    private final io.poolbudget.observe.GhostWatch ghosts;

    PolicyEventSources(NamespacePolicies policies, boolean sharedBudgets, KubernetesClient client,
            DatabaseReader reader,
            SharedCaches caches, io.poolbudget.observe.AgentScraper agents, boolean argoRollouts,
            io.poolbudget.observe.GhostWatch ghosts) {
        this.ghosts = ghosts;
        this.agents = agents;
        this.argoRollouts = argoRollouts;
        this.policies = policies;
        this.sharedBudgets = sharedBudgets;
        this.client = client;
        this.reader = reader;
        this.caches = caches;
    }

    public List<EventSource<?, PoolPolicy>> create(EventSourceContext<PoolPolicy> context) {
        var to = new PolicyMappers(context, policies, sharedBudgets);
        // Only pods and ConfigMaps the operator labelled are cached: not every pod in the cluster.
        var sizedPods = informer(context, Pod.class, to.pods(), Owner.SIZED_LABEL);
        List<EventSource<?, PoolPolicy>> sources = new java.util.ArrayList<>();
        // every workload kind, Argo Rollouts only where their API is served
        for (WorkloadKind kind : WorkloadKind.values()) {
            if (kind != WorkloadKind.Rollout || argoRollouts) {
                sources.add(informer(context, WorkloadShapes.type(kind), to.workloadPolicies(), null));
            }
        }
        sources.addAll(List.of(
                informer(context, HorizontalPodAutoscaler.class, to.namespacePolicies(), null),
                // what a drain may evict at once of a target's pods (issue 54)
                informer(context, PodDisruptionBudget.class, to.namespacePolicies(), null),
                sizedPods,
                informer(context, ConfigMap.class, to.sizedBy(), Owner.POLICY_LABEL),
                // spec.database.observe: the database's own connection count, read on a timer
                ObservationSource.create(context, client, reader,
                        ns -> io.poolbudget.observe.Ghosts.byAddress(sizedPods.list(ns)), ghosts)));
        // Claims span policies: when one appears, changes or goes, its neighbours must look again (a conflict appears
        // or clears for both), and a shared budget's shares and raise blockers span its policies' statuses.
        sources.add(neighbours(context, to.policiesAndPeers()));
        sources.add(agentReports(context, sizedPods));
        if (sharedBudgets) {
            var budgets = clusterInformer(context, DatabaseBudget.class, to.budgetPolicies());
            sources.add(budgets);
            var namespaces = clusterInformer(context, Namespace.class, to.referencingPolicies());
            sources.add(namespaces);
            if (caches.active()) {
                share(context, namespaces, sizedPods, budgets);
            }
        }
        return sources;
    }

    /**
     * Resize mode Live: what the agents in the sized pods report, read on the scraper's own timer; a policy is woken
     * when a report of one of its pods changes (a pod confirmed its new size, or cannot) or a pod starts to starve.
     */
    private EventSource<?, PoolPolicy> agentReports(EventSourceContext<PoolPolicy> context,
            InformerEventSource<Pod, PoolPolicy> sizedPods) {
        var source = new SimpleInboundEventSource<PoolPolicy>("agent-reports");
        agents.start(() -> sizedPods.list(), (namespace, key) -> context.getPrimaryCache()
                .list(p -> namespace.equals(p.getMetadata().getNamespace()) && Owner.of(p).key().equals(key))
                .forEach(p -> source.propagateEvent(io.javaoperatorsdk.operator.processing.event.ResourceID
                        .fromResource(p))));
        return source;
    }

    /** The caches the DatabaseBudget controller reads too ({@link SharedCaches}). */
    private void share(EventSourceContext<PoolPolicy> context, InformerEventSource<Namespace, PoolPolicy> namespaces,
            InformerEventSource<Pod, PoolPolicy> sizedPods, InformerEventSource<DatabaseBudget, PoolPolicy> budgets) {
        // the controller's own informer (JOSDK's ControllerEventSource) must be synced too before a budget is written
        if (!(context.getPrimaryCache() instanceof ManagedInformerEventSource<?, ?, ?> own)) {
            throw new IllegalStateException("PoolPolicy's cache (" + context.getPrimaryCache().getClass().getName()
                    + ") tells no informer health: the DatabaseBudget controller could not tell when it has listed."
                    + " This operator needs the java-operator-sdk version it was built with.");
        }
        caches.attach(() -> context.getPrimaryCache().list().toList(), () -> namespaces.list().toList(),
                () -> sizedPods.list().toList(), () -> budgets.list().toList(),
                List.of(SharedCaches.health(namespaces), SharedCaches.health(sizedPods), SharedCaches.health(budgets),
                        SharedCaches.health(own)));
    }

    /**
     * What wakes a policy's neighbours when it appears, changes (spec or status) or goes. Where the controller's cache
     * is ours, the cache itself tells ({@link NamespacePolicies#onChange}): a second informer on the policies would
     * receive, decrypt and parse every status write of every policy again (about 5 KB each, two per scale event),
     * which at 1,000 policies was a large share of the operator's CPU while workloads scaled. Neighbours are told
     * only once the controller's cache holds the change, so what they read of it is current. Elsewhere (one
     * informer per watched namespace) that informer stays.
     */
    private EventSource<?, PoolPolicy> neighbours(EventSourceContext<PoolPolicy> context,
            SecondaryToPrimaryMapper<HasMetadata> policiesAndPeers) {
        if (!policies.owned()) {
            return informer(context, PoolPolicy.class, policiesAndPeers, null);
        }
        var source = new SimpleInboundEventSource<PoolPolicy>("poolpolicy-neighbours");
        policies.onChange((was, now) -> {
            PrunedStore.concerning(was, now, policiesAndPeers::toPrimaryResourceIDs).forEach(source::propagateEvent);
            caches.changed();
        });
        return source;
    }

    /**
     * Workloads, HPAs, policies, DatabaseBudgets and namespaces are read from their caches directly
     * ({@link InformerCaches#cached}), never as JOSDK's secondary resources of a policy: this mapper (JOSDK asks
     * none of them for secondary resources) keeps JOSDK from indexing them by policy. That index held an entry
     * for every workload under each policy of its namespace (50,000 entries after a restart at 50,000
     * Deployments), and for every policy under each policy sharing its budget, which grows with the square of
     * the policies on one budget.
     */
    private static final PrimaryToSecondaryMapper<PoolPolicy> READ_BY_NAMESPACE = policy -> Set.of();

    /** An informer on a cluster-scoped resource (whatever namespaces the controller watches). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private <R extends HasMetadata> InformerEventSource<R, PoolPolicy> clusterInformer(
            EventSourceContext<PoolPolicy> context, Class<R> type, SecondaryToPrimaryMapper<HasMetadata> mapper) {
        return new InformerEventSource<>(InformerEventSourceConfiguration.from(type, PoolPolicy.class)
                .withName(type.getSimpleName().toLowerCase())
                .withItemStore(type != Namespace.class ? new PrunedStore<>()
                        : (PrunedStore) new PrunedStore<Namespace>().notifying((was, now) -> caches.changed()))
                .withInformerListLimit(ListPages.LIMIT).withPrimaryToSecondaryMapper(READ_BY_NAMESPACE)
                .withSecondaryToPrimaryMapper((SecondaryToPrimaryMapper) mapper).build(), context);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private <R extends HasMetadata> InformerEventSource<R, PoolPolicy> informer(EventSourceContext<PoolPolicy> context,
            Class<R> type, SecondaryToPrimaryMapper<HasMetadata> mapper, String labelSelector) {
        var config = InformerEventSourceConfiguration.from(type, PoolPolicy.class)
                .withName(type.getSimpleName().toLowerCase() + (labelSelector == null ? "" : "-" + labelSelector)
                        .replaceAll("[^a-z0-9-]", "-"))
                .withSecondaryToPrimaryMapper((SecondaryToPrimaryMapper) mapper)
                .withNamespacesInheritedFromController().withInformerListLimit(ListPages.LIMIT);
        if (type != Pod.class && type != ConfigMap.class) {
            config.withPrimaryToSecondaryMapper(READ_BY_NAMESPACE);
        }
        if (labelSelector != null) {
            config.withLabelSelector(labelSelector);
        }
        // JOSDK gives one store to the informer of every watched namespace, and each informer's relist would drop
        // the others' objects from a shared one: prune only where one informer watches every namespace
        if (context.getControllerConfiguration().getInformerConfig().watchAllNamespaces()) {
            config.withItemStore(WorkloadShapes.isWorkload(type)
                    // the controller's cache is synced before JOSDK starts this informer
                    ? PrunedStore.workloads(ns -> policies.in(context.getPrimaryCache(), ns).toList())
                    : type == Pod.class && Owner.SIZED_LABEL.equals(labelSelector)
                            ? (PrunedStore) new PrunedStore<Pod>().notifying(caches::podChanged)
                            : new PrunedStore<>());
        }
        return new InformerEventSource<>(config.build(), context);
    }
}
