package io.poolbudget.api.v1alpha1;

/**
 * Workload kinds a target can name. A standalone Job is not one: its pod template cannot change once it is created,
 * so a size could never reach it; a CronJob's Jobs are sized through the CronJob's jobTemplate.
 */
public enum WorkloadKind {
    Deployment, StatefulSet, Rollout, CronJob
}
