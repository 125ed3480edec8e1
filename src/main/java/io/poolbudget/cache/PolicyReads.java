package io.poolbudget.cache;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.decide.ClusterView;
import io.poolbudget.decide.LiveResize;
import io.poolbudget.decide.PassResult;
import io.poolbudget.decide.SettledWorkloads;
import io.poolbudget.decide.WorkloadShapes;
import io.poolbudget.status.Observation;
import io.poolbudget.planning.BudgetHoldings;
import io.poolbudget.planning.SharedBudgets;
import io.poolbudget.status.StatusAggregator;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.poolbudget.api.argo.ArgoRollout;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What a pass over one PoolPolicy reads, all of it from the informer caches: its namespace as a {@link ClusterView},
 * the other policies of the namespace (claims), the DatabaseBudgets it may draw on, and the database's last reading.
 * Nothing here calls the API server, but to read a workload whole that a policy has just started to read
 * ({@link WorkloadInterest}).
 */
public record PolicyReads(ClusterView view, List<PoolPolicy> neighbours, SharedBudgets shared,
        Observation observation) {

    /** {@code sharedBudgets}: this installation reads DatabaseBudgets. */
    public static PolicyReads of(PoolPolicy policy, Context<PoolPolicy> context, NamespacePolicies policies,
            SettledWorkloads settled, boolean sharedBudgets, Instant now,
            java.util.function.Function<String, io.poolbudget.decide.AgentReport> reports,
            io.poolbudget.planning.BudgetCap.Source caps) {
        var neighbours = policies.in(context.getPrimaryCache(), policy.getMetadata().getNamespace()).toList();
        // a shared budget's view spans every namespace: built only for a policy that draws on one
        var shared = sharedBudgets && SharedBudgets.ref(policy) != null ? sharedBudgets(context, reports, caps)
                : null;
        return new PolicyReads(view(context, settled, neighbours, now), neighbours, shared,
                context.getSecondaryResource(Observation.class).orElse(null));
    }

    /**
     * The policy's namespace, read from the informer caches directly rather than through JOSDK's secondary-resource
     * index: that index links a resource to the policies that existed when the resource last changed, so an HPA
     * created before its policy would be missed.
     */
    public static ClusterView view(Context<PoolPolicy> context, SettledWorkloads settled, List<PoolPolicy> neighbours,
            Instant now) {
        String ns = context.getPrimaryResource().getMetadata().getNamespace();
        // the policy and its neighbours, whose targets a pass reads too (claims): each of their workloads whole
        List<PoolPolicy> readers = Stream.concat(Stream.of(context.getPrimaryResource()), neighbours.stream()).toList();
        // every kind the operator watches (Argo Rollouts only where their API was served at its start)
        Map<WorkloadKind, List<? extends HasMetadata>> workloads = new EnumMap<>(WorkloadKind.class);
        for (WorkloadKind kind : WorkloadKind.values()) {
            if (InformerCaches.watches(context, WorkloadShapes.type(kind))) {
                workloads.put(kind, InformerCaches.workloads(context, WorkloadShapes.type(kind), ns, readers));
            }
        }
        settled.retain(ns, workloads.values().stream().flatMap(List::stream).map(o -> o.getMetadata().getUid())
                .filter(Objects::nonNull).toList());
        var view = new ClusterView(List.of(), List.of(), // each kind's workloads are added below
                InformerCaches.cached(context, HorizontalPodAutoscaler.class, ns),
                // pods and ConfigMaps: only those this policy sized
                context.getSecondaryResources(Pod.class), context.getSecondaryResources(ConfigMap.class), settled, now)
                .withDisruptionBudgets(InformerCaches.cached(context, PodDisruptionBudget.class, ns));
        workloads.forEach(view::with);
        return workloads.containsKey(WorkloadKind.Rollout) ? view
                : view.unwatched(WorkloadKind.Rollout, "names kind Rollout, but the operator found no Argo Rollouts "
                        + "API (" + ArgoRollout.CRD + ") when it started: install Argo Rollouts' CRDs, then restart "
                        + "the operator (kubectl rollout restart deployment of it)");
    }

    /**
     * Every DatabaseBudget, namespace, policy and sized pod as cached: the shares, what pods outside a budget's
     * admitted policies hold, and what a raise waits for.
     */
    public static SharedBudgets sharedBudgets(Context<PoolPolicy> context,
            java.util.function.Function<String, io.poolbudget.decide.AgentReport> reports,
            io.poolbudget.planning.BudgetCap.Source caps) {
        var policies = context.getPrimaryCache().list().toList();
        return new SharedBudgets(InformerCaches.cached(context, DatabaseBudget.class, null),
                InformerCaches.cached(context, Namespace.class, null), policies,
                BudgetHoldings.of(InformerCaches.sizedPods(context), policies, LiveResize.holding(reports)), caps);
    }

    /**
     * What holds connections of the budget outside the pods, as raises are told to wait for it: the ghosts of the
     * database's last reading (connections of pods that are gone).
     */
    public List<String> ghostBlockers() {
        return observation == null ? List.of() : observation.ghosts().stream().map(g -> g.connections()
                + " connections from " + g.address() + " of pod " + g.lastPod() + ", no pod at the address since "
                + g.since().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                + " (ghosts the database still holds)").toList();
    }

    /**
     * The addresses of the targets' pods this pass sees (terminating ones too; not those that ended, nor those on their node's network),
     * and the pod at each: what the ghosts a pod may leave are told by.
     */
    public Map<String, io.poolbudget.observe.Ghosts.Pod> podsByAddress(PassResult result) {
        Map<String, io.poolbudget.observe.Ghosts.Pod> at = new HashMap<>();
        result.targets().stream().filter(t -> t.workload() != null).forEach(t -> view.pods(t.workload()).forEach(p -> {
            String ip = p.getStatus() == null ? null : p.getStatus().getPodIP();
            boolean node = p.getSpec() != null && Boolean.TRUE.equals(p.getSpec().getHostNetwork());
            if (ip != null && !node && !io.poolbudget.observe.Ghosts.ended(p) && p.getMetadata().getUid() != null) {
                at.put(ip, new io.poolbudget.observe.Ghosts.Pod(p.getMetadata().getNamespace(),
                        p.getMetadata().getName(), p.getMetadata().getUid(), t.kind() + "/" + t.name(),
                        p.getMetadata().getDeletionTimestamp() == null));
            }
        }));
        return at;
    }

    /** What the database reported, for the status built from {@code result}; null without spec.database.observe. */
    public StatusAggregator.Observed observed(PoolPolicy policy, PassResult result) {
        var spec = policy.getSpec() == null || policy.getSpec().getDatabase() == null ? null
                : policy.getSpec().getDatabase().getObserve();
        if (spec == null) {
            return null;
        }
        Map<String, Set<String>> podIps = new HashMap<>();
        var clientPods = observation == null ? Map.<String, Map<String, String>>of() : observation.clientPods();
        result.targets().stream().filter(t -> t.workload() != null)
                .forEach(t -> podIps.put(t.kind() + "/" + t.name(), view.podIps(t.workload(), clientPods)));
        Integer instances = policy.getSpec().getDatabase().getInstances();
        return new StatusAggregator.Observed(spec, observation, podIps, instances == null ? 1 : instances);
    }

    /**
     * What the allocation by demand reads besides the view: {@code state} from the process's memory, and the database's
     * connections in use by client address where clients are told apart by address (else none).
     */
    public io.poolbudget.decide.DemandInput demand(PoolPolicy policy, io.poolbudget.decide.DemandState state) {
        var observe = policy.getSpec() == null || policy.getSpec().getDatabase() == null ? null
                : policy.getSpec().getDatabase().getObserve();
        boolean byAddress = observe != null
                && observe.getGroupBy() != io.poolbudget.api.v1alpha1.ObserveGroupBy.ApplicationName;
        if (!byAddress || observation == null) {
            return new io.poolbudget.decide.DemandInput(state, Map.of(), Map.of());
        }
        return new io.poolbudget.decide.DemandInput(state, observation.inUseByClient(), observation.clientPods());
    }
}
