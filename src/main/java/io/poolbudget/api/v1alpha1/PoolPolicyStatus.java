package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Observed state. Built whole by {@code io.poolbudget.status.StatusAggregator}; compared as JSON. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PoolPolicyStatus {

    @JsonPropertyDescription("The spec generation this status describes.")
    private Long observedGeneration;

    @JsonPropertyDescription("The connection budget the targets share, and how it was derived.")
    private BudgetStatus budget;

    @JsonPropertyDescription("Connections the targets' peak pods can hold with the computed sizes.")
    private Long allocated;

    @JsonPropertyDescription("Budget not handed out, and why (every target at maxPoolSize, or the next fair step does not fit).")
    private Long unallocated;

    private String unallocatedReason;

    @JsonPropertyDescription("Connections the targets' pods hold now, from the pods' own specs: terminating pods "
            + "included, a pod without the variable at the app's default (what it may open; left out where that is no "
            + "limit, see liveConnectionsUnbounded). Above the budget while "
            + "pods that existed before a change still hold larger pools (see the Oversubscribed condition, reason "
            + "LiveOverBudget); while that is reported, pods the operator did not size that left their workload are "
            + "counted until their grace period is over where the API server does not count terminating pods.")
    private Long liveConnections;

    @JsonPropertyDescription("True while pods the operator has not sized yet run an app that has no pool limit without "
            + "its variable (a preset's \"no limit\"): they may open any number of connections, so liveConnections is "
            + "left out (a sum with such a pod in it is no number) and the Oversubscribed condition says so. Absent "
            + "otherwise.")
    private Boolean liveConnectionsUnbounded;

    @JsonPropertyDescription("What the database reported at its last read (only with spec.database.observe).")
    private ObservedStatus observed;

    public ObservedStatus getObserved() { return observed; }
    public void setObserved(ObservedStatus observed) { this.observed = observed; }

    @JsonPropertyDescription("Number of workloads the targets resolved to.")
    private Integer targetCount;

    @JsonPropertyDescription("How many targets are in each state (Applied, Rolling, Pending, ...).")
    private Map<String, Integer> targetStates;

    @JsonPropertyDescription("Per workload: the plan, the size, and whether it is applied. Bounded: problems first, "
            + "then raises held, then rollouts, then the rest, in full up to 100 entries; past that only held raises "
            + "(in short) are listed and the rest are counted in targetsOmitted. Events and metrics carry the details.")
    private List<TargetStatus> targets = new ArrayList<>();

    @JsonPropertyDescription("Targets not listed in targets, to keep the object small.")
    private Integer targetsOmitted;

    @JsonPropertyDescription("Ready, Oversubscribed, RolloutInProgress and Conflict, as Kubernetes conditions.")
    private List<Condition> conditions = new ArrayList<>();

    public Long getObservedGeneration() { return observedGeneration; }
    public void setObservedGeneration(Long observedGeneration) { this.observedGeneration = observedGeneration; }
    public BudgetStatus getBudget() { return budget; }
    public void setBudget(BudgetStatus budget) { this.budget = budget; }
    public Long getAllocated() { return allocated; }
    public void setAllocated(Long allocated) { this.allocated = allocated; }
    public Long getUnallocated() { return unallocated; }
    public void setUnallocated(Long unallocated) { this.unallocated = unallocated; }
    public String getUnallocatedReason() { return unallocatedReason; }
    public void setUnallocatedReason(String unallocatedReason) { this.unallocatedReason = unallocatedReason; }
    public Long getLiveConnections() { return liveConnections; }
    public void setLiveConnections(Long liveConnections) { this.liveConnections = liveConnections; }
    public Boolean getLiveConnectionsUnbounded() { return liveConnectionsUnbounded; }
    public void setLiveConnectionsUnbounded(Boolean liveConnectionsUnbounded) {
        this.liveConnectionsUnbounded = liveConnectionsUnbounded;
    }
    public Map<String, Integer> getTargetStates() { return targetStates; }
    public void setTargetStates(Map<String, Integer> targetStates) { this.targetStates = targetStates; }
    public Integer getTargetsOmitted() { return targetsOmitted; }
    public void setTargetsOmitted(Integer targetsOmitted) { this.targetsOmitted = targetsOmitted; }
    public Integer getTargetCount() { return targetCount; }
    public void setTargetCount(Integer targetCount) { this.targetCount = targetCount; }
    public List<TargetStatus> getTargets() { return targets; }
    public void setTargets(List<TargetStatus> targets) { this.targets = targets; }
    public List<Condition> getConditions() { return conditions; }
    public void setConditions(List<Condition> conditions) { this.conditions = conditions; }
}
