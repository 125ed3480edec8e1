package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;

/**
 * The budget and each referencing policy's share and use, and what pods outside its admitted policies still hold.
 * Rebuilt whole by the DatabaseBudget's own reconciler from the policies' statuses and the pods, written only when it
 * changes.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DatabaseBudgetStatus {

    @JsonPropertyDescription("The whole budget, and how it was derived.")
    private BudgetStatus budget;

    @JsonPropertyDescription("Policies drawing on it (refused ones not counted).")
    private Integer policyCount;

    @JsonPropertyDescription("Connections the policies' plans allocate together (at most the budget).")
    private Long allocated;

    @JsonPropertyDescription("Connections the policies' pods hold now together, as each policy last reported.")
    private Long liveConnections;

    @JsonPropertyDescription("True while a policy's pods may open any number of connections (its "
            + "status.liveConnectionsUnbounded): then liveConnections, their sum, is left out. Absent otherwise.")
    private Boolean liveConnectionsUnbounded;

    @JsonPropertyDescription("Each referencing policy: its share, what its plan allocates, what its pods hold now, "
            + "or why it was refused.")
    private List<PolicyShare> policies = new ArrayList<>();

    @JsonPropertyDescription("Connections held by pods whose pools were sized from this budget but whose policy is "
            + "not one of its admitted policies now (refused, deleted, or drawing on something else): they count "
            + "against the budget, and the admitted policies split only the rest, until those pods are gone or hold less.")
    private Long heldOutside;

    @JsonPropertyDescription("Those pods, by policy: how many, how many are shutting down, what they hold, and why "
            + "they are outside.")
    private List<HeldOutside> outside = new ArrayList<>();

    @JsonPropertyDescription("With spec.ledger: every cluster's claim and what this cluster may use.")
    private LedgerStatus ledger;

    @JsonPropertyDescription("The generation of the spec this status describes.")
    private Long observedGeneration;

    @JsonPropertyDescription("Ready: the budget's spec is valid and its shares are computed (False names the field at "
            + "fault).")
    private List<io.fabric8.kubernetes.api.model.Condition> conditions = new ArrayList<>();

    public LedgerStatus getLedger() { return ledger; }
    public void setLedger(LedgerStatus ledger) { this.ledger = ledger; }
    public Long getHeldOutside() { return heldOutside; }
    public void setHeldOutside(Long heldOutside) { this.heldOutside = heldOutside; }
    public List<HeldOutside> getOutside() { return outside; }
    public void setOutside(List<HeldOutside> outside) { this.outside = outside; }
    public Long getObservedGeneration() { return observedGeneration; }
    public void setObservedGeneration(Long observedGeneration) { this.observedGeneration = observedGeneration; }
    public List<io.fabric8.kubernetes.api.model.Condition> getConditions() { return conditions; }
    public void setConditions(List<io.fabric8.kubernetes.api.model.Condition> conditions) {
        this.conditions = conditions;
    }

    public BudgetStatus getBudget() { return budget; }
    public void setBudget(BudgetStatus budget) { this.budget = budget; }
    public Integer getPolicyCount() { return policyCount; }
    public void setPolicyCount(Integer policyCount) { this.policyCount = policyCount; }
    public List<PolicyShare> getPolicies() { return policies; }
    public void setPolicies(List<PolicyShare> policies) { this.policies = policies; }
    public Long getAllocated() { return allocated; }
    public void setAllocated(Long allocated) { this.allocated = allocated; }
    public Long getLiveConnections() { return liveConnections; }
    public void setLiveConnections(Long liveConnections) { this.liveConnections = liveConnections; }
    public Boolean getLiveConnectionsUnbounded() { return liveConnectionsUnbounded; }
    public void setLiveConnectionsUnbounded(Boolean liveConnectionsUnbounded) {
        this.liveConnectionsUnbounded = liveConnectionsUnbounded;
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class PolicyShare {
        private String namespace;
        private String name;
        @JsonPropertyDescription("Connections of the budget this policy plans with; absent when refused.")
        private Long share;
        @JsonPropertyDescription("Connections its plan allocates (its status.allocated).")
        private Long allocated;
        @JsonPropertyDescription("Connections its pods hold now (its status.liveConnections).")
        private Long live;
        @JsonPropertyDescription("True while its pods may open any number of connections (its "
                + "status.liveConnectionsUnbounded); live is then left out.")
        private Boolean liveUnbounded;
        @JsonPropertyDescription("Why it draws nothing: its namespace is not selected.")
        private String refused;

        public String getNamespace() { return namespace; }
        public void setNamespace(String namespace) { this.namespace = namespace; }
        public String getName() { return name; }
        public void setName(String name) { this.name = name; }
        public Long getShare() { return share; }
        public void setShare(Long share) { this.share = share; }
        public Long getAllocated() { return allocated; }
        public void setAllocated(Long allocated) { this.allocated = allocated; }
        public Long getLive() { return live; }
        public void setLive(Long live) { this.live = live; }
        public Boolean getLiveUnbounded() { return liveUnbounded; }
        public void setLiveUnbounded(Boolean liveUnbounded) { this.liveUnbounded = liveUnbounded; }
        public String getRefused() { return refused; }
        public void setRefused(String refused) { this.refused = refused; }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class HeldOutside {
        private String namespace;
        @JsonPropertyDescription("The PoolPolicy that sized the pods (it may be gone).")
        private String policy;
        private Integer pods;
        @JsonPropertyDescription("Of those pods, how many are shutting down.")
        private Integer terminating;
        private Long connections;
        @JsonPropertyDescription("Why they are outside the admitted policies.")
        private String reason;

        public String getNamespace() { return namespace; }
        public void setNamespace(String namespace) { this.namespace = namespace; }
        public String getPolicy() { return policy; }
        public void setPolicy(String policy) { this.policy = policy; }
        public Integer getPods() { return pods; }
        public void setPods(Integer pods) { this.pods = pods; }
        public Integer getTerminating() { return terminating; }
        public void setTerminating(Integer terminating) { this.terminating = terminating; }
        public Long getConnections() { return connections; }
        public void setConnections(Long connections) { this.connections = connections; }
        public String getReason() { return reason; }
        public void setReason(String reason) { this.reason = reason; }
    }
}
