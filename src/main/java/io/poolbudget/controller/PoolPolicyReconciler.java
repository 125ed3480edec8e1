package io.poolbudget.controller;

import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.MaxReconciliationInterval;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.poolbudget.config.ListPages;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.cache.NamespacePolicies;
import io.poolbudget.cache.PolicyReads;
import io.poolbudget.cache.PrunedStore;
import io.poolbudget.cache.SharedCaches;
import io.poolbudget.config.ControllerNames;
import io.poolbudget.config.OperatorConfig;
import io.poolbudget.decide.Decision;
import io.poolbudget.planning.Owner;
import io.poolbudget.decide.PassResult;
import io.poolbudget.decide.PolicyPass;
import io.poolbudget.memory.PolicyMemory;
import io.poolbudget.metrics.PolicyMetrics;
import io.poolbudget.observe.DatabaseReader;
import io.poolbudget.observe.GhostWatch;
import io.poolbudget.observe.Ghosts;
import io.poolbudget.observe.ObservationSource;
import io.poolbudget.status.StatusAggregator;
import io.poolbudget.write.PolicyEvents;
import io.poolbudget.write.Realizer;
import io.poolbudget.write.StatusWriter;
import io.poolbudget.write.WorkloadWriter;
import io.quarkiverse.operatorsdk.runtime.api.ConfigurableReconciler;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A PoolPolicy's controller. A pass reads its namespace from the caches, decides ({@link PolicyPass}), announces the
 * status of what it is about to write, has the writes applied ({@link Realizer}), builds the status of what came of
 * them ({@link StatusAggregator}), reports it (Events, metrics) and writes it ({@link StatusWriter}): each a step of
 * {@link #reconcile}. What it remembers between passes is in the {@link PolicyMemory}.
 * <p>
 * Every policy is looked at again at least every 5 minutes even when nothing changed: it heals a missed event, and
 * {@code poolbudget_reconciles_total} keeps growing on a healthy leader, which the chart's
 * PoolBudgetOperatorNotReconciling alert relies on. An unchanged pass writes nothing.
 */
@ControllerConfiguration(name = ControllerNames.POLICY, informer = @io.javaoperatorsdk.operator.api.config.informer.Informer(informerListLimit = ListPages.LIMIT), maxReconciliationInterval = @MaxReconciliationInterval(interval = 5, timeUnit = TimeUnit.MINUTES))
public class PoolPolicyReconciler implements ConfigurableReconciler<PoolPolicy>, Cleaner<PoolPolicy> {
    private final Clock clock = Clock.systemUTC();
    private final NamespacePolicies policies = new NamespacePolicies();
    private final KubernetesClient client;
    private final SharedCaches caches;
    private final PolicyMemory memory;
    private final Realizer realizer;
    private final PolicyEvents events;
    private final PolicyMetrics metrics;
    private final DatabaseReader reader;
    private final WorkloadWriter writer;
    private final StatusAggregator statuses;
    private final OperatorConfig config;
    private final io.poolbudget.observe.AgentScraper agents;
    private final Ghosts ghosts;
    /** What the ledgers of budgets shared with other clusters allow this one (issue 57). */
    private final io.poolbudget.ledger.LedgerSync ledgers;

    public PoolPolicyReconciler(KubernetesClient client, SharedCaches caches, PolicyMemory memory, Realizer realizer,
            PolicyEvents events, PolicyMetrics metrics, DatabaseReader reader, OperatorConfig config,
            io.poolbudget.observe.AgentScraper agents, Ghosts ghosts, io.poolbudget.ledger.LedgerSync ledgers) {
        this.agents = agents;
        this.ledgers = ledgers;
        this.ghosts = ghosts;
        this.client = client;
        this.caches = caches;
        this.memory = memory;
        this.realizer = realizer;
        this.events = events;
        this.metrics = metrics;
        this.reader = reader;
        this.config = config;
        this.writer = WorkloadWriter.serverSideApply(client);
        this.statuses = new StatusAggregator(clock, config.liveOverBudgetGrace());
    }

    /**
     * The controller's own cache of the policies, pruned as the other caches are ({@link PrunedStore}): without it
     * every policy kept its managedFields, one field set per manager, the status writer's listing every target's
     * fields (about 15 MiB at 1,000 policies of 10 targets). Only where one informer watches every namespace.
     */
    @Override
    public void updateConfigurationFrom(ControllerConfigurationOverrider<PoolPolicy> configuration) {
        if (caches.everyNamespace()) {
            configuration.withItemStore(policies.ownStore());
        }
    }

    @Override
    public UpdateControl<PoolPolicy> reconcile(PoolPolicy policy, Context<PoolPolicy> context) {
        var reads = PolicyReads.of(policy, context, policies, memory.workloads(), config.sharedBudgets().enabled(),
                clock.instant(), agents::report, ledgers);
        reads.view().withReports(agents.reports(policy.getMetadata().getNamespace()))
                .withHeldElsewhere(reads.ghostBlockers());
        Decision decision = PolicyPass.decide(policy, reads.view(), reads.neighbours(), reads.shared(), clock.instant(),
                config.stabilizationWindow(), config.agentImage().orElse(null), reads.demand(policy,
                        memory.of(policy).demand()));
        remember(policy, decision);
        PoolPolicy current = announce(policy, context, reads, decision);
        PassResult result = decision.result(realizer.realize(decision.writes(), writer.counted(outcome -> metrics
                .wrote(policy.getMetadata().getNamespace(), policy.getMetadata().getName(), outcome))));
        realizer.publish(decision.podWrites(), writer);
        StatusAggregator.Built built = build(policy, reads, result);
        report(policy, result, built.status());
        StatusWriter.write(current, built.status(), context, PoolPolicy::new);
        return requeue(result.requeue(), statuses.recheck(built.overSince()));
    }

    /** What the allocation by demand keeps for the next pass, and its recommendations said once each (Events). */
    private void remember(PoolPolicy policy, Decision decision) {
        memory.of(policy).demand(decision.demand() == null ? null : decision.demand().state());
        agents.readClosely(Owner.of(policy).key(), policy.getMetadata().getNamespace(),
                decision.demand() == null ? java.util.Set.of() : decision.demand().readClosely());
        if (decision.demand() != null) {
            decision.demand().recommendations().forEach(r -> events.normal(policy, PolicyEvents.RECOMMENDED, r));
        }
    }

    /**
     * The status of a pass about to write, written just before its writes: a scale event shows in the status after one
     * round trip to the API server, not two, and ahead of the rollouts the writes start. Returns the policy as it is
     * now, for the status after the writes.
     */
    private PoolPolicy announce(PoolPolicy policy, Context<PoolPolicy> context, PolicyReads reads, Decision decision) {
        PassResult writing = decision.announced();
        if (writing == null) {
            return policy;
        }
        var status = statuses.build(policy, writing, memory.lastReported(policy), memory.of(policy).overSince(),
                reads.observed(policy, writing)).status();
        return StatusWriter.write(policy, status, context, PoolPolicy::new);
    }

    /** The status of what came of the pass; since when its pods declare more than the budget is remembered. */
    private StatusAggregator.Built build(PoolPolicy policy, PolicyReads reads, PassResult result) {
        var observed = reads.observed(policy, result);
        if (observed == null) {
            reader.forget(policy); // observing was turned off
            ghosts.forget(ObservationSource.key(policy));
        } else if (observed.spec().getGroupBy() != io.poolbudget.api.v1alpha1.ObserveGroupBy.ApplicationName) {
            ghosts.attribute(ObservationSource.key(policy), reads.podsByAddress(result), clock.instant()); // for the ghosts they leave
        }
        var built = statuses.build(policy, result, memory.lastReported(policy), memory.of(policy).overSince(),
                observed);
        memory.of(policy).overSince(built.overSince());
        return built;
    }

    /** The Events and metrics of a pass; its conditions become the ones last reported. */
    private void report(PoolPolicy policy, PassResult result, PoolPolicyStatus status) {
        events.record(policy, result, status);
        metrics.record(policy.getMetadata().getNamespace(), policy.getMetadata().getName(),
                io.poolbudget.planning.PoolerTier.databaseName(policy),
                status);
        metrics.reconciled();
    }

    /** Looks again when a raise's window or an over-budget moment's grace ends, whichever comes first. */
    private static UpdateControl<PoolPolicy> requeue(Duration raise, Duration grace) {
        Duration next = raise == null ? grace : grace == null || raise.compareTo(grace) < 0 ? raise : grace;
        UpdateControl<PoolPolicy> none = UpdateControl.noUpdate();
        return next == null ? none : none.rescheduleAfter(Math.max(1000, next.toMillis() + 1));
    }

    /**
     * A pass that failed unexpectedly (a bug, an object the schema let through that the planner cannot read) is
     * counted, reported on the policy itself as Ready=False with reason ReconcileError and one Warning Event while it
     * lasts, and retried by JOSDK with back-off (which logs the exception). The rest of the status is left as it was.
     */
    @Override
    public ErrorStatusUpdateControl<PoolPolicy> updateErrorStatus(PoolPolicy policy, Context<PoolPolicy> context,
            Exception e) {
        metrics.reconcileFailed();
        PoolPolicyStatus status = statuses.error(policy, PassFailure.describe(e),
                memory.lastReported(policy));
        events.reportFailure(policy, status.getConditions());
        StatusWriter.write(policy, status, context, PoolPolicy::new);
        return ErrorStatusUpdateControl.noStatusUpdate();
    }

    /** The policy is gone: forget it, and with deletionPolicy Remove take back every value the operator set. */
    @Override
    public DeleteControl cleanup(PoolPolicy policy, Context<PoolPolicy> context) {
        memory.forget(policy);
        agents.readClosely(Owner.of(policy).key(), policy.getMetadata().getNamespace(), java.util.Set.of());
        Release.of(policy, context, policies, memory.workloads(), clock.instant(), writer, events);
        return DeleteControl.defaultDelete();
    }

    @Override
    public List<EventSource<?, PoolPolicy>> prepareEventSources(EventSourceContext<PoolPolicy> context) {
        var watch = new GhostWatch(ghosts, reader, client, events::say, clock);
        return new PolicyEventSources(policies, config.sharedBudgets().enabled(), client, reader, caches, agents,
                argoRolloutsServed(), watch).create(context);
    }

    /** Argo Rollouts' API, as discovery tells it now: its Rollouts are watched only where it is served. */
    private boolean argoRolloutsServed() {
        boolean served = client.supports(io.poolbudget.api.argo.ArgoRollout.class);
        if (!served) {
            org.jboss.logging.Logger.getLogger(PoolPolicyReconciler.class).infof("Argo Rollouts' API (%s) is not "
                    + "served: targets of kind Rollout are refused until it is installed and the operator restarted",
                    io.poolbudget.api.argo.ArgoRollout.CRD);
        }
        return served;
    }
}
