package io.poolbudget.planning;

import io.poolbudget.api.v1alpha1.DatabaseSpec;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.ReplicaBasis;
import io.poolbudget.api.v1alpha1.TargetSpec;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.sizing.Allocation;
import io.poolbudget.sizing.Basis;
import io.poolbudget.sizing.Budget;
import io.poolbudget.sizing.DatabaseInput;
import io.poolbudget.sizing.InvalidInputException;
import io.poolbudget.sizing.Limits;
import io.poolbudget.sizing.PoolSizer;
import io.poolbudget.sizing.TargetInput;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a PoolPolicy and the workloads it names into an allocation. Checks what the API server's
 * schema would (the plan command has no API server), and names the field of every problem.
 */
public final class PolicyPlanner {
    private PolicyPlanner() {}

    /** A workload a target resolved to. */
    public record ResolvedTarget(int index, TargetSpec spec, Workload workload) {}

    /**
     * A target naming a workload that does not exist (yet), or whose selector matches none ({@code name} null,
     * {@code selector} the selector as kubectl prints it).
     */
    public record MissingTarget(int index, WorkloadKind kind, String name, String selector) {
        public String field() {
            return "spec.targets[" + index + "]." + (name != null ? "name" : "selector");
        }

        /** What is wrong, for a condition, an Event or plan's warning. */
        public String problem() {
            return name != null ? kind + "/" + name + " does not exist in this namespace (named by " + field() + ")"
                    : field() + " (" + selector + ") matches no " + kind + " in this namespace: check the labels it "
                            + "selects, or the kind";
        }
    }

    /** {@code terminatingMarks}: each workload's recent rollouts after this pass (by workload id), for its status. */
    public record PolicyPlan(List<ResolvedTarget> targets, List<MissingTarget> missing, Allocation allocation,
            Map<String, List<TerminatingMarks.Mark>> terminatingMarks) {}

    /** The workloads a policy's targets name or select, without sizing them. */
    public record Resolution(List<ResolvedTarget> targets, List<MissingTarget> missing) {}

    /** A policy's share of the DatabaseBudget its spec.databaseRef names; throws naming the field when it has none. */
    @FunctionalInterface
    public interface SharedBudgets {
        Budget shareOf(PoolPolicy policy);
    }

    public static PolicyPlan plan(PoolPolicy policy, WorkloadCatalog catalog, SharedBudgets shared) {
        if (policy.getSpec() == null) {
            throw new InvalidPolicyException("spec", "is required: give spec.database and spec.targets");
        }
        InjectionRules.check(policy.getSpec());
        AllocationRules.check(policy.getSpec());
        if ((policy.getSpec().getDatabase() == null) == (policy.getSpec().getDatabaseRef() == null)) {
            // the CRD's CEL rule, for the plan command
            throw new InvalidPolicyException("spec", "must set exactly one of spec.database (a database of this "
                    + "policy's own) or spec.databaseRef (a shared DatabaseBudget)");
        }
        Budget budget = policy.getSpec().getDatabaseRef() != null ? shared.shareOf(policy)
                : PoolerTier.behindPooler(policy) ? PoolerTier.budget(policy, catalog)
                        : Budget.of(database(policy.getSpec().getDatabase(), "spec.database"));
        return sized(policy, catalog, budget, resolve(policy, catalog));
    }

    /**
     * The plan of the targets resolved, with what was seen of their rollouts: each workload's terminating marks after
     * this pass, and where those alone take the plan past the budget, its reason says so.
     */
    private static PolicyPlan sized(PoolPolicy policy, WorkloadCatalog catalog, Budget budget, Resolution resolution) {
        var injection = policy.getSpec().getInjection();
        List<TargetInput> inputs = new ArrayList<>(resolution.targets().size());
        // the same, planning only for the pods terminating now: whether the marks alone take the plan past the budget
        List<TargetInput> unmarked = new ArrayList<>(resolution.targets().size());
        Map<String, List<TerminatingMarks.Mark>> marksBefore = TerminatingMarks.recorded(policy);
        Map<String, List<TerminatingMarks.Mark>> marks = new HashMap<>();
        boolean marked = false; // a mark plans for more pods than terminate now
        try {
            int minimum = minimumPool(injection);
            boolean forks = injection != null && injection.getPreset() != null && injection.getPreset().forks();
            checkFields(policy.getSpec().getTargets(), minimum);
            for (ResolvedTarget r : resolution.targets()) {
                Workload w = r.workload();
                if (w.kind() == WorkloadKind.Rollout && injection != null && io.poolbudget.api.v1alpha1.ResizeMode
                        .of(injection) == io.poolbudget.api.v1alpha1.ResizeMode.Live) {
                    throw new InvalidPolicyException("spec.injection.resize", "is Live, but " + w.id() + " is an Argo "
                            + "Rollout, whose CRD keeps a pod template's volumes as one list that server-side apply "
                            + "would take over: leave resize at Restart (the default) for a policy with Rollout "
                            + "targets");
                }
                var after = TerminatingMarks.update(marksBefore.get(w.id()), catalog.rolloutOverlap(w),
                        catalog.now());
                marks.put(w.id(), after);
                // pods terminating now hold their pools now, whatever removed them; only rollouts are remembered
                long now = catalog.terminatingNow(w);
                long seen = Math.max(now, TerminatingMarks.most(after));
                marked |= seen > now;
                int steps = w.shutdown().steps(catalog.observedReadySeconds(w));
                var drains = catalog.disruptions(w);
                inputs.add(input(r, seen == 0 ? null : (int) Math.min(seen, Limits.REPLICAS), steps, minimum, forks)
                        .disruptions(drains).build());
                unmarked.add(input(r, now == 0 ? null : (int) Math.min(now, Limits.REPLICAS), steps, minimum, forks)
                        .disruptions(drains).build());
            }
            Allocation allocation = PoolSizer.allocate(budget, inputs);
            if (allocation.verdict() == Allocation.Verdict.OVERSUBSCRIBED && marked) {
                allocation = TerminatingMarks.blamed(allocation, PoolSizer.allocate(budget, unmarked), marks);
            }
            return new PolicyPlan(resolution.targets(), resolution.missing(), allocation, Map.copyOf(marks));
        } catch (InvalidInputException e) {
            throw new InvalidPolicyException(e.field(), e.getMessage().substring(e.field().length() + 1));
        }
    }

    /** Resolves targets to workloads: what a policy claims, whatever its database section says. */
    public static Resolution resolve(PoolPolicy policy, WorkloadCatalog catalog) {
        var spec = policy.getSpec();
        if (spec == null) {
            throw new InvalidPolicyException("spec", "is required: give spec.database and spec.targets");
        }
        if (spec.getTargets() == null || spec.getTargets().isEmpty()) {
            throw new InvalidPolicyException("spec.targets", "must list at least one workload");
        }
        String namespace = policy.getMetadata() == null ? null : policy.getMetadata().getNamespace();
        List<ResolvedTarget> resolved = new ArrayList<>();
        List<MissingTarget> missing = new ArrayList<>();
        for (int i = 0; i < spec.getTargets().size(); i++) {
            TargetSpec t = spec.getTargets().get(i);
            String field = "spec.targets[" + i + "]";
            if (t == null) {
                throw new InvalidPolicyException(field, "is empty: give a name or a selector");
            }
            if ((t.getName() == null) == (t.getSelector() == null)) {
                throw new InvalidPolicyException(field, "must set exactly one of name or selector");
            }
            WorkloadKind kind = t.getKind() == null ? WorkloadKind.Deployment : t.getKind();
            if (t.getName() != null) {
                Optional<Workload> w = catalog.find(kind, namespace, t.getName());
                if (w.isPresent()) {
                    resolved.add(new ResolvedTarget(i, t, w.get()));
                } else {
                    missing.add(new MissingTarget(i, kind, t.getName(), null));
                }
            } else {
                try {
                    List<Workload> selected = catalog.select(kind, namespace, t.getSelector());
                    for (Workload w : selected) {
                        resolved.add(new ResolvedTarget(i, t, w));
                    }
                    if (selected.isEmpty()) {
                        missing.add(new MissingTarget(i, kind, null, Workloads.describe(t.getSelector())));
                    }
                } catch (IllegalArgumentException e) {
                    throw new InvalidPolicyException(field + ".selector", e.getMessage());
                }
            }
        }
        return new Resolution(List.copyOf(resolved), List.copyOf(missing));
    }

    /** A database section (a policy's {@code spec.database}, or a DatabaseBudget's), checked as the schema would. */
    public static DatabaseInput database(DatabaseSpec db, String field) {
        if (db == null) {
            throw new InvalidPolicyException(field, "is required: give at least " + field + ".cores");
        }
        if (db.getPooler() != null) {
            // only a DatabaseBudget's database comes here (a policy's own goes to PoolerTier): the CRD's CEL rule
            throw new InvalidPolicyException(field + ".pooler",
                    io.poolbudget.api.v1alpha1.DatabaseBudgetSpec.POOLER_MESSAGE
                            .substring("spec.database.pooler ".length()));
        }
        if (db.getCores() == null && db.getBudget() == null) {
            // the CRD's CEL rule, for the plan command
            throw new InvalidPolicyException(field + ".cores", "is required unless " + field + ".budget is given: the "
                    + "database server's CPU cores, or an explicit budget of connections");
        }
        try {
            return new DatabaseInput(db.getCores(), orDefault(db.getEffectiveSpindles(), 0),
                    orDefault(db.getConnectionsPerCore(), 2),
                    Limits.bounded("database.maxConnections", db.getMaxConnections(), 1, Limits.CONNECTIONS),
                    Limits.bounded("database.reservedConnections", db.getReservedConnections() == null ? 0
                            : db.getReservedConnections(), 0, Limits.CONNECTIONS),
                    Limits.bounded("database.budget", db.getBudget(), 1, Limits.CONNECTIONS),
                    orDefault(db.getInstances(), 1));
        } catch (InvalidInputException e) {
            // the engine names fields from "database."; the section may sit elsewhere
            throw new InvalidPolicyException(field + e.field().substring("database".length()),
                    e.getMessage().substring(e.field().length() + 1));
        }
    }

    /** The smallest pool the preset's app starts with: every target's minPoolSize unless it sets one. */
    static int minimumPool(io.poolbudget.api.v1alpha1.InjectionSpec injection) {
        return injection == null || injection.getPreset() == null ? 1 : injection.getPreset().minimumPool();
    }

    /** Every target's own fields, checked as sizing checks them, whether or not its selector matches anything. */
    private static void checkFields(List<TargetSpec> targets, int minimum) {
        for (int i = 0; targets != null && i < targets.size(); i++) {
            String field = "spec.targets[" + i + "]";
            fields(TargetInput.builder(field), targets.get(i), field, minimum, 1).build();
        }
    }

    private static TargetInput.Builder input(ResolvedTarget r, Integer seenTerminating, int shutdownSteps, int minimum,
            boolean forks) {
        Workload w = r.workload();
        String field = "spec.targets[" + r.index() + "]";
        if (w.problem() != null && !(w.rollout() instanceof io.poolbudget.sizing.Batch
                && r.spec().getBasis() == io.poolbudget.api.v1alpha1.ReplicaBasis.Fixed)) {
            // the workload's own spec is at fault: said of this target, with the workload's field
            throw new InvalidPolicyException(field + (r.spec().getName() != null ? ".name" : ".selector"),
                    "cannot be sized: " + w.problem());
        }
        if (forks && r.spec().getPoolsPerPod() == null && w.workers() != null
                && w.workers() == Workload.WORKERS_UNKNOWN) {
            throw new InvalidPolicyException(field + ".poolsPerPod", "is required here: " + w.id() + " sets "
                    + Workload.WORKERS_ENV + " to what its spec does not tell (valueFrom, 'auto' or a reference), so "
                    + "how many workers its pods fork, a pool each, is not known: set poolsPerPod to that number");
        }
        return fields(TargetInput.builder(w.id()), r.spec(), field, minimum,
                forks && w.workers() != null ? w.workers() : 1)
                .replicas(w.replicas()).hpaMaxReplicas(w.hpaMaxReplicas()).scaler(w.scaler()).rollout(w.rollout())
                .seenTerminating(seenTerminating)
                .shutdownSteps(shutdownSteps);
    }

    /** {@code pools}: pools per pod where the target does not say (the workers a forking server starts, else 1). */
    private static TargetInput.Builder fields(TargetInput.Builder builder, TargetSpec t, String field, int minimum,
            long pools) {
        return builder.field(field)
                .weight(orDefault(t.getWeight(), 1)).minPoolSize(orDefault(t.getMinPoolSize(),
                        t.getMaxPoolSize() == null ? minimum : Math.min(minimum, t.getMaxPoolSize())))
                .maxPoolSize(t.getMaxPoolSize())
                .poolsPerPod(
                        Limits.bounded(field + ".poolsPerPod", t.getPoolsPerPod() == null ? pools : t.getPoolsPerPod(),
                                1, Limits.POOLS_PER_POD))
                .basis(basis(t.getBasis()))
                .fixedReplicas(Limits.bounded(field + ".fixedReplicas", t.getFixedReplicas(), 0, Limits.REPLICAS))
                .terminatingPods(
                        Limits.bounded(field + ".terminatingPods", t.getTerminatingPods(), 0, Limits.REPLICAS))
                .disruptionPods(Limits.bounded(field + ".disruptionPods", t.getDisruptionPods(), 0, Limits.REPLICAS));
    }

    private static Basis basis(ReplicaBasis basis) {
        if (basis == null) {
            return null;
        }
        return switch (basis) {
            case HpaMax -> Basis.HPA_MAX;
            case Current -> Basis.CURRENT;
            case Fixed -> Basis.FIXED;
        };
    }

    private static int orDefault(Integer value, int fallback) {
        return value == null ? fallback : value;
    }
}
