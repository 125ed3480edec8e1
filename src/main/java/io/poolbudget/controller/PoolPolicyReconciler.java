package io.poolbudget.controller;

import io.poolbudget.cache.InformerCaches;
import io.poolbudget.cache.NamespacePolicies;
import io.poolbudget.cache.PrunedStore;
import io.poolbudget.cache.SharedCaches;
import io.poolbudget.decide.ClusterView;
import io.poolbudget.decide.Injection;
import io.poolbudget.decide.Owner;
import io.poolbudget.decide.PolicyPass;
import io.poolbudget.memory.SettledWorkloads;
import io.poolbudget.observe.ObservationSource;
import io.poolbudget.planning.BudgetHoldings;
import io.poolbudget.status.Conditions;
import io.poolbudget.status.ObservedAggregator;
import io.poolbudget.status.PassFailure;
import io.poolbudget.status.SameStatus;
import io.poolbudget.status.StatusAggregator;
import io.poolbudget.write.PolicyEvents;
import io.poolbudget.write.WorkloadWriter;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.MaxReconciliationInterval;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.DeletionPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.metrics.PolicyMetrics;
import io.poolbudget.observe.Observation;
import io.poolbudget.observe.PostgresReader;
import io.poolbudget.planning.SharedBudgets;
import java.util.HashMap;
import java.util.Map;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.quarkiverse.operatorsdk.runtime.api.ConfigurableReconciler;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Every policy is looked at again at least every 5 minutes even when nothing changed: it heals a
 * missed event, and {@code poolbudget_reconciles_total} keeps growing on a healthy leader, which the
 * chart's PoolBudgetOperatorNotReconciling alert relies on. An unchanged pass writes nothing.
 */
@ControllerConfiguration(name = PoolPolicyReconciler.NAME,
        informer = @io.javaoperatorsdk.operator.api.config.informer.Informer(informerListLimit = PrunedStore.LIST_LIMIT),
        maxReconciliationInterval = @MaxReconciliationInterval(interval = 5, timeUnit = TimeUnit.MINUTES))
public class PoolPolicyReconciler implements ConfigurableReconciler<PoolPolicy>, Cleaner<PoolPolicy> {
    public static final String NAME = "poolpolicy";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Clock clock = Clock.systemUTC();
    private final StatusAggregator statusAggregator;
    private final WorkloadWriter writer;
    private final PolicyEvents events;
    private final Duration window;
    private final PolicyMetrics metrics;
    private final KubernetesClient client;
    private final PostgresReader reader = new PostgresReader();
    private final SettledWorkloads settled = new SettledWorkloads();

    private final boolean sharedBudgets;
    private final NamespacePolicies policies = new NamespacePolicies();
    private final SharedCaches caches;

    public PoolPolicyReconciler(KubernetesClient client, MeterRegistry registry, SharedCaches caches,
                                @ConfigProperty(name = "poolbudget.stabilization-window", defaultValue = "PT3M") Duration window,
                                @ConfigProperty(name = "poolbudget.shared-budgets.enabled", defaultValue = "true")
                                boolean sharedBudgets,
                                @ConfigProperty(name = "poolbudget.live-over-budget-grace", defaultValue = "15s")
                                Duration liveGrace) {
        this.statusAggregator = new StatusAggregator(clock, liveGrace);
        this.client = client;
        this.caches = caches;
        this.sharedBudgets = sharedBudgets;
        this.writer = WorkloadWriter.serverSideApply(client);
        this.events = new PolicyEvents(client);
        this.window = window;
        this.metrics = new PolicyMetrics(registry, clock);
    }

    /**
     * The controller's own cache of the policies, pruned as the other caches are ({@link PrunedStore}): without it
     * every policy kept its managedFields, one field set per manager, the status writer's listing every target's
     * fields (about 15 MiB at 1,000 policies of 10 targets). Only where one informer watches every namespace (see
     * {@link #informer}).
     */
    @Override
    public void updateConfigurationFrom(ControllerConfigurationOverrider<PoolPolicy> configuration) {
        if (caches.everyNamespace()) {
            configuration.withItemStore(policies.ownStore());
        }
    }

    @Override
    public UpdateControl<PoolPolicy> reconcile(PoolPolicy policy, Context<PoolPolicy> context) {
        var neighbours = policies.in(context.getPrimaryCache(), policy.getMetadata().getNamespace()).toList();
        var meta = policy.getMetadata();
        var counted = writer.counted(outcome -> metrics.wrote(meta.getNamespace(), meta.getName(), outcome));
        var view = ClusterView.of(context, settled, neighbours, clock.instant());
        // a shared budget's view spans every namespace: built only for a policy that draws on one
        var shared = sharedBudgets && SharedBudgets.ref(policy) != null ? sharedBudgets(context) : null;
        var announced = new AtomicReference<>(policy.getStatus());
        var result = PolicyPass.run(policy, view, neighbours, shared, counted, clock.instant(), window,
                writing -> announce(policy, context, view, writing, announced));
        PoolPolicyStatus desired = statusAggregator.status(policy, result, events.lastReported(policy));
        observed(policy, context, view, result, desired);
        events.record(policy, result, desired);
        metrics.record(meta.getNamespace(), meta.getName(), databaseName(policy), desired);
        metrics.reconciled();
        UpdateControl<PoolPolicy> control = SameStatus.as(desired, announced.get())
                ? UpdateControl.noUpdate() : UpdateControl.patchStatus(statusOnly(policy, desired));
        Duration recheck = statusAggregator.recheck(policy);
        Duration next = result.requeue() == null ? recheck : recheck == null ? result.requeue()
                : recheck.compareTo(result.requeue()) < 0 ? recheck : result.requeue();
        return next == null ? control : control.rescheduleAfter(Math.max(1000, next.toMillis() + 1));
    }

    /**
     * The status of a pass about to write (PolicyPass.Announcer), written just before its writes: a scale event shows
     * in the status after one round trip to the API server, not two, and ahead of the rollouts the writes start. Written as JOSDK writes the pass's own
     * status afterwards (server-side apply, the controller's field manager, forced), so that one owner holds the
     * fields and the later write replaces every one of them; {@code announced} is what the status now is.
     */
    private void announce(PoolPolicy policy, Context<PoolPolicy> context, ClusterView view, PolicyPass.Result writing,
                          AtomicReference<PoolPolicyStatus> announced) {
        PoolPolicyStatus status = statusAggregator.status(policy, writing, events.lastReported(policy));
        observed(policy, context, view, writing, status);
        if (SameStatus.as(status, announced.get())) {
            return;
        }
        client.resource(statusOnly(policy, status)).subresource("status").patch(new PatchContext.Builder()
                .withFieldManager(context.getControllerConfiguration().fieldManager()).withForce(true)
                .withPatchType(PatchType.SERVER_SIDE_APPLY).build());
        announced.set(status);
    }

    /** spec.database.observe: the database's last read (JOSDK's cache of ObservationSource) into the status. */
    private void observed(PoolPolicy policy, Context<PoolPolicy> context, ClusterView view, PolicyPass.Result result,
                          PoolPolicyStatus desired) {
        var spec = ObservationSource.spec(policy);
        if (spec == null) {
            reader.forget(ObservationSource.key(policy)); // observing was turned off
            return;
        }
        if (desired.getBudget() == null) {
            return; // an invalid spec: nothing to compare with
        }
        Map<String, Set<String>> podIps = new HashMap<>();
        result.targets().stream().filter(t -> t.workload() != null)
                .forEach(t -> podIps.put(t.kind() + "/" + t.name(), view.podIps(t.workload())));
        Integer instances = policy.getSpec().getDatabase().getInstances();
        ObservedAggregator.apply(desired, spec, context.getSecondaryResource(Observation.class).orElse(null), podIps,
                instances == null ? 1 : instances, policy.getStatus() == null ? null : policy.getStatus().getConditions(),
                policy.getMetadata().getGeneration() == null ? 0 : policy.getMetadata().getGeneration(), clock);
    }

    /**
     * Every DatabaseBudget, namespace, policy and sized pod as cached: the shares, what pods outside a budget's
     * admitted policies hold, and what a raise waits for. Read only: the DatabaseBudget's own reconciler writes its status.
     */
    public static SharedBudgets sharedBudgets(Context<PoolPolicy> context) {
        var policies = context.getPrimaryCache().list().toList();
        return new SharedBudgets(InformerCaches.cached(context, DatabaseBudget.class, null),
                InformerCaches.cached(context, Namespace.class, null), policies,
                BudgetHoldings.of(InformerCaches.sizedPods(context), policies));
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
        var status = policy.getStatus() == null ? new PoolPolicyStatus() : JSON.convertValue(policy.getStatus(),
                PoolPolicyStatus.class);
        String message = "the operator could not finish a pass over this policy: " + PassFailure.describe(e)
                + ". It retries with back-off; if this stays, check the objects named here and the operator's log";
        var previous = events.lastReported(policy);
        var conditions = new java.util.ArrayList<>(status.getConditions() == null ? List.<io.fabric8.kubernetes.api.model
                .Condition>of() : status.getConditions().stream().filter(c -> !Conditions.READY.equals(c.getType())).toList());
        conditions.add(0, Conditions.carry(previous, Conditions.READY, Conditions.FALSE, Conditions.REASON_RECONCILE_ERROR,
                message, policy.getMetadata().getGeneration() == null ? 0 : policy.getMetadata().getGeneration(), clock));
        status.setConditions(conditions);
        events.reportFailure(policy, conditions);
        return ErrorStatusUpdateControl.patchStatus(statusOnly(policy, status));
    }

    private static String databaseName(PoolPolicy policy) {
        return policy.getSpec() == null || policy.getSpec().getDatabase() == null ? SharedBudgets.ref(policy)
                : policy.getSpec().getDatabase().getName();
    }

    /** deletionPolicy Remove takes back every value the operator set; Retain leaves them. */
    @Override
    public DeleteControl cleanup(PoolPolicy policy, Context<PoolPolicy> context) {
        metrics.remove(policy.getMetadata().getNamespace(), policy.getMetadata().getName());
        events.forget(policy);
        statusAggregator.forget(policy);
        reader.forget(ObservationSource.key(policy));
        if (policy.getSpec() == null || policy.getSpec().getDeletionPolicy() != DeletionPolicy.Remove
                || policy.getStatus() == null || policy.getStatus().getTargets() == null) {
            return DeleteControl.defaultDelete();
        }
        String ns = policy.getMetadata().getNamespace();
        var view = ClusterView.of(context, settled, policies.in(context.getPrimaryCache(), ns).toList(),
                clock.instant());
        Owner owner = Owner.of(policy);
        for (var t : policy.getStatus().getTargets()) {
            WorkloadKind kind = WorkloadKind.valueOf(t.getKind());
            var workload = view.find(kind, ns, t.getName());
            // Applying to a workload that is gone would try to create it; a conflicted one was never written.
            if (t.getAppliedPoolSize() == null || "Conflict".equals(t.getState()) || workload.isEmpty()) {
                continue;
            }
            String problem = writer.apply(owner.fieldManager(), Injection.release(kind, ns, t.getName()));
            writer.deleteConfigMap(ns, owner.configMapName(kind, t.getName()));
            events.normal(policy, PolicyEvents.RELEASED, t.getKind() + "/" + t.getName()
                    + (problem == null ? ": the operator's pool size settings were removed" : ": " + problem));
        }
        return DeleteControl.defaultDelete();
    }

    @Override
    public List<EventSource<?, PoolPolicy>> prepareEventSources(EventSourceContext<PoolPolicy> context) {
        return new PolicyEventSources(policies, sharedBudgets, client, reader, caches).create(context);
    }

    /** A minimal object for the server-side-apply status patch: identity plus status, nothing else. */
    private static PoolPolicy statusOnly(PoolPolicy policy, PoolPolicyStatus status) {
        var patch = new PoolPolicy();
        patch.setMetadata(new ObjectMetaBuilder().withName(policy.getMetadata().getName())
                .withNamespace(policy.getMetadata().getNamespace()).build());
        patch.setStatus(status);
        return patch;
    }
}
