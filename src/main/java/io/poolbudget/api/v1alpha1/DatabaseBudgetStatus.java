package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;

/**
 * The budget and each referencing policy's share and use. Rebuilt whole by the passes of the policies that
 * reference it ({@code SharedBudgets.status}), written only when it changes.
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

    @JsonPropertyDescription("Each referencing policy: its share, what its plan allocates, what its pods hold now, "
            + "or why it was refused.")
    private List<PolicyShare> policies = new ArrayList<>();

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
        public String getRefused() { return refused; }
        public void setRefused(String refused) { this.refused = refused; }
    }
}
