package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Observed state. Built whole by {@code io.poolbudget.reconciler.StatusAggregator}; compared by value. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PoolPolicyStatus {

    @JsonPropertyDescription("The spec generation this status describes.")
    private Long observedGeneration;

    @JsonPropertyDescription("Ready, Oversubscribed, RolloutInProgress and Conflict, as Kubernetes conditions.")
    private List<Condition> conditions = new ArrayList<>();

    public Long getObservedGeneration() { return observedGeneration; }
    public void setObservedGeneration(Long observedGeneration) { this.observedGeneration = observedGeneration; }
    public List<Condition> getConditions() { return conditions; }
    public void setConditions(List<Condition> conditions) { this.conditions = conditions; }

    @Override
    public boolean equals(Object o) {
        return o instanceof PoolPolicyStatus s
                && Objects.equals(observedGeneration, s.observedGeneration)
                && Objects.equals(conditions, s.conditions);
    }

    @Override
    public int hashCode() { return Objects.hash(observedGeneration, conditions); }
}
