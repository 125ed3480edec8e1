package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

public class BudgetStatus {
    @JsonPropertyDescription("Connections the targets may hold together.")
    private Long connections;

    @JsonPropertyDescription("The term that decided it: Formula, Explicit, MaxConnections, Share (a policy's share "
            + "of a DatabaseBudget) or Pooler (the client connections a pooler accepts).")
    private String term;

    @JsonPropertyDescription("How it was derived.")
    private String explanation;

    public BudgetStatus() {}

    public BudgetStatus(Long connections, String term, String explanation) {
        this.connections = connections;
        this.term = term;
        this.explanation = explanation;
    }

    /** A budget as status shows it, a PoolPolicy's and a DatabaseBudget's alike. */
    public static BudgetStatus of(io.poolbudget.sizing.Budget budget) {
        String term = switch (budget.term()) {
            case FORMULA -> "Formula";
            case EXPLICIT -> "Explicit";
            case MAX_CONNECTIONS -> "MaxConnections";
            case SHARE -> "Share";
            case POOLER -> "Pooler";
        };
        return new BudgetStatus(budget.connections(), term, budget.explanation());
    }

    public Long getConnections() { return connections; }
    public void setConnections(Long connections) { this.connections = connections; }
    public String getTerm() { return term; }
    public void setTerm(String term) { this.term = term; }
    public String getExplanation() { return explanation; }
    public void setExplanation(String explanation) { this.explanation = explanation; }
}
