package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.poolbudget.sizing.Limits;

public class DatabaseRef {
    @Required
    @Size(min = 1, max = Limits.NAME_LENGTH)
    @JsonPropertyDescription("The DatabaseBudget's name.")
    private String name;

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
}
