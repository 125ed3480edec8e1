package io.poolbudget.api.v1alpha1;

/** Workload kinds a target can name. */
public enum WorkloadKind {
    Deployment, StatefulSet
}
