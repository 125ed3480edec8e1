package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One workload's plan and where its rollout stands. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TargetStatus {
    private String kind;
    private String name;

    @JsonPropertyDescription("Replicas planned for (HPA maxReplicas, current or fixed).")
    private Long basisReplicas;

    @JsonPropertyDescription("Pods that can hold connections at once: basis + surge + terminating.")
    private Long peakPods;

    @JsonPropertyDescription("The most replicas (for basis HpaMax: the most HPA maxReplicas) this target may plan for "
            + "and still fit the budget with every target at its minPoolSize. The chart's fit guard warns at a raise "
            + "past it.")
    private Long replicasThatFit;

    @JsonPropertyDescription("Connections the budget leaves this target beside the other targets at their minPoolSize "
            + "(below zero when those alone exceed it).")
    private Long connectionsLeft;

    @JsonPropertyDescription("The most old pods of one of this workload's last 3 rollouts seen terminating at once "
            + "(see terminatingSeen). When that is more than one rollout step (their shutdown outlasts a step), peak pods "
            + "plan for that many, unless terminatingPods is set.")
    private Long seenTerminatingPods;

    @JsonPropertyDescription("The workload's last 3 rollouts, newest last, each with the most of its old pods seen "
            + "terminating at once while its new pods ran. Pods a scale-down removes are not counted, nor those of a "
            + "revision the operator's own write replaced within the rollout; a mark is forgotten after 3 later "
            + "rollouts or 24 h after it was seen, whichever comes first.")
    private java.util.List<TerminatingMark> terminatingSeen;

    public java.util.List<TerminatingMark> getTerminatingSeen() { return terminatingSeen; }
    public void setTerminatingSeen(java.util.List<TerminatingMark> terminatingSeen) {
        this.terminatingSeen = terminatingSeen;
    }

    @JsonPropertyDescription("The computed per-pod pool size (minimum idle is set equal).")
    private Integer poolSize;

    @JsonPropertyDescription("The pool size the workload's pod template carries now, if any.")
    private Integer appliedPoolSize;

    @JsonPropertyDescription("peakPods x poolsPerPod x poolSize")
    private Long connections;

    @JsonPropertyDescription("Connections this workload's pods hold now, as their own specs say (terminating pods "
            + "included; a pod without the variable at the app's default pool size).")
    private Long liveConnections;

    @JsonPropertyDescription("True while this workload's pods the operator has not sized yet run an app that has no pool limit without "
            + "its variable (a preset's \"no limit\"): they may open any number of connections, so liveConnections is "
            + "left out (a sum with such a pod in it is no number). Absent "
            + "otherwise.")
    private Boolean liveConnectionsUnbounded;

    @JsonPropertyDescription("Applied, Rolling, Stalled (the rollout of the written size is not progressing: its new pods "
            + "crash-loop or cannot start, or ProgressDeadlineExceeded; it stays Stalled while a raise of it waits), Paused (a paused Deployment keeps its old pods), Pending (a raise waits for "
            + "shrinking targets or the stabilisation window), DryRun, Conflict, NotFound or Invalid.")
    private String state;

    @JsonPropertyDescription("Connections the database reports from this workload's pods (spec.database.observe with "
            + "groupBy ClientAddress).")
    private Long observedConnections;

    public Long getObservedConnections() { return observedConnections; }
    public void setObservedConnections(Long observedConnections) { this.observedConnections = observedConnections; }

    @JsonPropertyDescription("Why the target is in this state.")
    private String message;

    @JsonPropertyDescription("When a raise of this target's pool size was first held (start of the stabilisation window).")
    private String pendingSince;

    @JsonPropertyDescription("How the numbers were derived; ends in a Note when the rollout reserve keeps the pool at 1 "
            + "per pod, with what to change (more budget, or maxSurge: 0).")
    private String explanation;

    @JsonPropertyDescription("How running pods take a new size: Live (spec.injection.resize: Live, the agent in the pod "
            + "template) or Rollout. Absent before the first write.")
    private String resize;

    @JsonPropertyDescription("Resize Live: the pods whose agent confirmed appliedPoolSize (every pool at it and holding no "
            + "more), of podsHoldingSize.")
    private Integer podsConfirmed;

    @JsonPropertyDescription("Resize Live: the pods that hold appliedPoolSize, confirmed or started with it.")
    private Integer podsHoldingSize;

    @JsonPropertyDescription("Resize Live: the first pods that do not hold appliedPoolSize yet, each with why (a pod that "
            + "does not confirm within spec.injection.liveDeadlineSeconds gets the size by a rollout).")
    private java.util.List<String> podsPending;

    @JsonPropertyDescription("Resize Live: each running pod's agent as last read, from the moment its app is up, whether or "
            + "not a size change is in flight: why it cannot size the pod's pools (no pool found, a pool it cannot "
            + "resize), else how many pools it found. Those with a problem first: the first 5 pods, and how many more.")
    private java.util.List<String> agents;

    @JsonPropertyDescription("spec.allocation Demand or Recommend: connections this target's pods want, per pod: in use "
            + "plus callers waiting for one, the high watermark of each report, smoothed (it rises at once and decays "
            + "with a half-life). Absent while unknown.")
    private Integer demand;

    @JsonPropertyDescription("Where demand comes from: agent (the pods' pools, in use plus waiting), or database (in use "
            + "only) where no agent reports it, which cannot see callers waiting.")
    private String demandSource;

    @JsonPropertyDescription("spec.allocation Demand or Recommend: the pool size by weights alone (the nominal share), "
            + "from which the target lends and borrows.")
    private Integer nominalPoolSize;

    @JsonPropertyDescription("spec.allocation Recommend: the pool size mode Demand would give this target now; nothing "
            + "is written.")
    private Integer recommendedPoolSize;

    @JsonPropertyDescription("spec.allocation Demand or Recommend: what the allocation did for this target and why, in "
            + "one line (lent, borrowed, at its nominal share, or kept at it: no live resize, no demand reported).")
    private String allocation;

    public Integer getDemand() { return demand; }
    public void setDemand(Integer demand) { this.demand = demand; }
    public String getDemandSource() { return demandSource; }
    public void setDemandSource(String demandSource) { this.demandSource = demandSource; }
    public Integer getNominalPoolSize() { return nominalPoolSize; }
    public void setNominalPoolSize(Integer nominalPoolSize) { this.nominalPoolSize = nominalPoolSize; }
    public Integer getRecommendedPoolSize() { return recommendedPoolSize; }
    public void setRecommendedPoolSize(Integer recommendedPoolSize) { this.recommendedPoolSize = recommendedPoolSize; }
    public String getAllocation() { return allocation; }
    public void setAllocation(String allocation) { this.allocation = allocation; }
    public java.util.List<String> getAgents() { return agents; }
    public void setAgents(java.util.List<String> agents) { this.agents = agents; }
    public String getResize() { return resize; }
    public void setResize(String resize) { this.resize = resize; }
    public Integer getPodsConfirmed() { return podsConfirmed; }
    public void setPodsConfirmed(Integer podsConfirmed) { this.podsConfirmed = podsConfirmed; }
    public Integer getPodsHoldingSize() { return podsHoldingSize; }
    public void setPodsHoldingSize(Integer podsHoldingSize) { this.podsHoldingSize = podsHoldingSize; }
    public java.util.List<String> getPodsPending() { return podsPending; }
    public void setPodsPending(java.util.List<String> podsPending) { this.podsPending = podsPending; }
    public Long getSeenTerminatingPods() { return seenTerminatingPods; }
    public void setSeenTerminatingPods(Long seenTerminatingPods) { this.seenTerminatingPods = seenTerminatingPods; }
    public String getKind() { return kind; }
    public void setKind(String kind) { this.kind = kind; }
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public Long getBasisReplicas() { return basisReplicas; }
    public void setBasisReplicas(Long basisReplicas) { this.basisReplicas = basisReplicas; }
    public Long getPeakPods() { return peakPods; }
    public void setPeakPods(Long peakPods) { this.peakPods = peakPods; }
    public Long getReplicasThatFit() { return replicasThatFit; }
    public void setReplicasThatFit(Long replicasThatFit) { this.replicasThatFit = replicasThatFit; }
    public Long getConnectionsLeft() { return connectionsLeft; }
    public void setConnectionsLeft(Long connectionsLeft) { this.connectionsLeft = connectionsLeft; }
    public Integer getPoolSize() { return poolSize; }
    public void setPoolSize(Integer poolSize) { this.poolSize = poolSize; }
    public Integer getAppliedPoolSize() { return appliedPoolSize; }
    public void setAppliedPoolSize(Integer appliedPoolSize) { this.appliedPoolSize = appliedPoolSize; }
    public Long getConnections() { return connections; }
    public void setConnections(Long connections) { this.connections = connections; }
    public Long getLiveConnections() { return liveConnections; }
    public void setLiveConnections(Long liveConnections) { this.liveConnections = liveConnections; }
    public Boolean getLiveConnectionsUnbounded() { return liveConnectionsUnbounded; }
    public void setLiveConnectionsUnbounded(Boolean liveConnectionsUnbounded) {
        this.liveConnectionsUnbounded = liveConnectionsUnbounded;
    }
    public String getState() { return state; }
    public void setState(String state) { this.state = state; }
    public String getMessage() { return message; }
    public void setMessage(String message) { this.message = message; }
    public String getPendingSince() { return pendingSince; }
    public void setPendingSince(String pendingSince) { this.pendingSince = pendingSince; }
    public String getExplanation() { return explanation; }
    public void setExplanation(String explanation) { this.explanation = explanation; }
}
