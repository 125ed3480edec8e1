package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;

/**
 * This cluster's part of a budget shared through a ledger: every cluster's claim as the last tick read it, and what
 * this cluster may use. No lease times: they change on every renewal.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LedgerStatus {
    @JsonPropertyDescription("The budget the ledger splits: the smallest any cluster declares.")
    private Long budget;

    @JsonPropertyDescription("This cluster's part by weight, among the clusters whose leases run.")
    private Long target;

    @JsonPropertyDescription("What the ledger grants this cluster now: what its pods may hold.")
    private Long granted;

    @JsonPropertyDescription("What this cluster's policies split: the smaller of its grant and its target.")
    private Long planWith;

    @JsonPropertyDescription("Why this cluster plans with less than its target, one line per cause.")
    private List<String> waiting = new ArrayList<>();

    @JsonPropertyDescription("Every cluster's claim.")
    private List<ClusterClaim> clusters = new ArrayList<>();

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class ClusterClaim {
        private String cluster;
        private Integer weight;
        private Long granted;
        private Long holds;
        @JsonPropertyDescription("Running, or Lapsed: its operator stopped renewing; it keeps its claim until the "
                + "database shows none of its connections.")
        private String lease;

        public String getCluster() { return cluster; }
        public void setCluster(String cluster) { this.cluster = cluster; }
        public Integer getWeight() { return weight; }
        public void setWeight(Integer weight) { this.weight = weight; }
        public Long getGranted() { return granted; }
        public void setGranted(Long granted) { this.granted = granted; }
        public Long getHolds() { return holds; }
        public void setHolds(Long holds) { this.holds = holds; }
        public String getLease() { return lease; }
        public void setLease(String lease) { this.lease = lease; }
    }

    public Long getBudget() { return budget; }
    public void setBudget(Long budget) { this.budget = budget; }
    public Long getTarget() { return target; }
    public void setTarget(Long target) { this.target = target; }
    public Long getGranted() { return granted; }
    public void setGranted(Long granted) { this.granted = granted; }
    public Long getPlanWith() { return planWith; }
    public void setPlanWith(Long planWith) { this.planWith = planWith; }
    public List<String> getWaiting() { return waiting; }
    public void setWaiting(List<String> waiting) { this.waiting = waiting; }
    public List<ClusterClaim> getClusters() { return clusters; }
    public void setClusters(List<ClusterClaim> clusters) { this.clusters = clusters; }
}
