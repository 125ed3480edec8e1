package io.poolbudget.planning;

import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.sizing.Rollout;
import java.util.Map;

/**
 * What sizing needs to know of one Deployment or StatefulSet: its replicas, how it rolls out, and
 * the maximum of whatever scales it ({@code hpaMaxReplicas} null when nothing does; {@code scaler}
 * names it for explanations, for example "HorizontalPodAutoscaler/web"), and how long its old pods
 * take to shut down against a rollout step.
 */
public record Workload(WorkloadKind kind, String namespace, String name, Map<String, String> labels, int replicas,
        Rollout rollout, Integer hpaMaxReplicas, String scaler, Shutdown shutdown) {

    /** "Deployment/checkout-api": unique within a namespace, and the id targets are sized under. */
    public String id() {
        return kind + "/" + name;
    }
}
