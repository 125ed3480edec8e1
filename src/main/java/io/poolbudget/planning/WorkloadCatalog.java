package io.poolbudget.planning;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where the planner looks workloads up: parsed manifests for the offline plan command, informer
 * caches in the operator.
 */
public interface WorkloadCatalog {

    Optional<Workload> find(WorkloadKind kind, String namespace, String name);

    /** Every workload of {@code kind} in {@code namespace} whose labels match, ordered by name. */
    List<Workload> select(WorkloadKind kind, String namespace, LabelSelector selector);

    /** How many of the workload's pods are terminating now (deleted, still shutting down); 0 where unknown. */
    default int terminatingNow(Workload workload) {
        return 0;
    }

    /**
     * The revision of the workload's newest running pods and how many of its older pods are terminating now (the old
     * pods of a rollout that overlap its new ones); null where unknown.
     */
    default TerminatingMarks.Overlap rolloutOverlap(Workload workload) {
        return null;
    }

    /**
     * The time of this view, for what the plan remembers (when a terminating mark was seen, and when it lapses); null
     * where there is none (the plan command reads manifests, not a moment of a cluster).
     */
    default Instant now() {
        return null;
    }

    /**
     * The PodDisruptionBudgets that select the workload's pods (its pod template's labels, its namespace); none where
     * unknown.
     */
    default List<io.poolbudget.sizing.Disruption> disruptions(Workload workload) {
        return List.of();
    }

    /** The fewest seconds one of the workload's pods took from creation to Ready; null where none was seen. */
    default Integer observedReadySeconds(Workload workload) {
        return null;
    }
}
