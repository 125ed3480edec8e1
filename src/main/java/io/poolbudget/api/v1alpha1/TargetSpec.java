package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.poolbudget.sizing.Limits;

/** One workload (by name) or a set of workloads (by selector) that connects to the database. */
@ValidationRule(value = "has(self.name) != has(self.selector)", message = "set exactly one of targets[].name or targets[].selector")
@ValidationRule(value = "!has(self.maxPoolSize) || !has(self.minPoolSize) || self.minPoolSize <= self.maxPoolSize", message = "targets[].minPoolSize must not exceed targets[].maxPoolSize: lower minPoolSize or raise maxPoolSize")
@ValidationRule(value = "(has(self.basis) && self.basis == 'Fixed') == has(self.fixedReplicas)", message = "targets[].fixedReplicas is required with basis Fixed and only allowed with it")
public class TargetSpec {

    @Size(min = 1, max = Limits.NAME_LENGTH)
    @JsonPropertyDescription("Name of the workload in the policy's namespace. Set this or selector.")
    private String name;

    @Default("Deployment")
    @JsonPropertyDescription("Kind of the workload: Deployment (default), StatefulSet, Rollout (Argo Rollouts: its "
            + "canary or blue-green strategy sets its peak pods) or CronJob (its Jobs' parallelism, completions and "
            + "concurrencyPolicy set its peak pods; the size goes into spec.jobTemplate, so each Job it starts "
            + "carries it).")
    private WorkloadKind kind = WorkloadKind.Deployment;

    @JsonPropertyDescription("Label selector for workloads in the policy's namespace; every match is a target. Set this or name.")
    private LabelSelector selector;

    @Min(1)
    @Max(Limits.WEIGHT)
    @Default("1")
    @JsonPropertyDescription("Relative per-pod share: a pod of a weight-2 target gets about twice the pool of a "
            + "weight-1 target's pod (default 1).")
    private Integer weight = 1;

    @Min(1)
    @Max(Limits.POOL_SIZE)
    @JsonPropertyDescription("Smallest pool size per pod. Default: the smallest pool the preset's app starts with (2 for "
            + "keycloak, else 1). A budget too small for every minimum is reported as Oversubscribed.")
    private Integer minPoolSize;

    @Min(1)
    @Max(Limits.POOL_SIZE)
    @JsonPropertyDescription("Largest pool size per pod. Budget left once every target is at its maximum is reported, not handed out.")
    private Integer maxPoolSize;

    @Min(1)
    @Max(Limits.POOLS_PER_POD)
    @JsonPropertyDescription("Pools each pod opens to this database (2 for a pod with two datasources to it). Default "
            + "1; for a preset whose server forks workers that each build a pool (rails), the WEB_CONCURRENCY the "
            + "pod template sets.")
    private Long poolsPerPod;

    @JsonPropertyDescription("Which replica count to plan for: HpaMax (the HPA's maxReplicas; the default when an HPA "
            + "scales the workload, so scaling needs no new rollout), Current (the default without an HPA) or Fixed.")
    private ReplicaBasis basis;

    @Min(0)
    @Max(Limits.REPLICAS)
    @JsonPropertyDescription("Replica count to plan for when basis is Fixed.")
    private Long fixedReplicas;

    @Min(0)
    @Max(Limits.REPLICAS)
    @JsonPropertyDescription("Pods of the previous revision that may still hold connections while a rollout starts new "
            + "ones. Default: one rollout step (maxSurge + maxUnavailable pods), which assumes an old pod has closed "
            + "its pool before the next batch of new pods is Ready. Raise it for apps with a long graceful shutdown; "
            + "0 for Recreate and StatefulSets, which never overlap old and new pods.")
    private Long terminatingPods;

    @Min(0)
    @Max(Limits.REPLICAS)
    @JsonPropertyDescription("Pods a node drain may evict at once that no PodDisruptionBudget bounds: the plan counts "
            + "them terminating beside their replacements (for example the most of this workload's pods one node "
            + "runs). Where a PodDisruptionBudget selects its pods, the plan counts what the budget lets a drain "
            + "evict at once, or this where it is more. A StatefulSet's evicted pod is replaced only once it is gone, "
            + "so this adds nothing there. Default: none without a PodDisruptionBudget (status and plan then say so).")
    private Long disruptionPods;

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public WorkloadKind getKind() { return kind; }
    public void setKind(WorkloadKind kind) { this.kind = kind; }
    public LabelSelector getSelector() { return selector; }
    public void setSelector(LabelSelector selector) { this.selector = selector; }
    public Integer getWeight() { return weight; }
    public void setWeight(Integer weight) { this.weight = weight; }
    public Integer getMinPoolSize() { return minPoolSize; }
    public void setMinPoolSize(Integer minPoolSize) { this.minPoolSize = minPoolSize; }
    public Integer getMaxPoolSize() { return maxPoolSize; }
    public void setMaxPoolSize(Integer maxPoolSize) { this.maxPoolSize = maxPoolSize; }
    public Long getPoolsPerPod() { return poolsPerPod; }
    public void setPoolsPerPod(Long poolsPerPod) { this.poolsPerPod = poolsPerPod; }
    public ReplicaBasis getBasis() { return basis; }
    public void setBasis(ReplicaBasis basis) { this.basis = basis; }
    public Long getFixedReplicas() { return fixedReplicas; }
    public void setFixedReplicas(Long fixedReplicas) { this.fixedReplicas = fixedReplicas; }
    public Long getTerminatingPods() { return terminatingPods; }
    public void setTerminatingPods(Long terminatingPods) { this.terminatingPods = terminatingPods; }
    public Long getDisruptionPods() { return disruptionPods; }
    public void setDisruptionPods(Long disruptionPods) { this.disruptionPods = disruptionPods; }
}
