package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.ArrayList;
import java.util.List;

public class PoolPolicySpec {

    @Required
    @JsonPropertyDescription("The database whose connections this policy budgets.")
    private DatabaseSpec database;

    @Required
    @Size(min = 1)
    @JsonPropertyDescription("The workloads that connect to the database. Each gets a static per-pod pool size; "
            + "together they never exceed the database's budget.")
    private List<TargetSpec> targets = new ArrayList<>();

    public DatabaseSpec getDatabase() { return database; }
    public void setDatabase(DatabaseSpec database) { this.database = database; }
    public List<TargetSpec> getTargets() { return targets; }
    public void setTargets(List<TargetSpec> targets) { this.targets = targets; }
}
