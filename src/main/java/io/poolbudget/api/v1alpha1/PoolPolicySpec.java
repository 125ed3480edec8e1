package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.generator.annotation.Size;
import java.util.ArrayList;
import java.util.List;

@ValidationRule(value = "self.dryRun || has(self.injection)", message = "spec.injection is required unless spec.dryRun is true: name a preset or the env variables")
@ValidationRule(value = "has(self.database) != has(self.databaseRef)", message = "set exactly one of spec.database (a database of this policy's own) or spec.databaseRef (a shared "
        + "DatabaseBudget)")
@ValidationRule(value = "!has(self.allocation) || !has(self.allocation.mode) || self.allocation.mode != 'Demand' || "
        + "(has(self.injection) && has(self.injection.resize) && self.injection.resize == 'Live')", message = AllocationSpec.DEMAND_MESSAGE)
public class PoolPolicySpec {

    @JsonPropertyDescription("The database whose connections this policy budgets, as this policy's own. Set this or "
            + "databaseRef.")
    private DatabaseSpec database;

    @JsonPropertyDescription("A DatabaseBudget (cluster-scoped) shared with other namespaces: this policy plans with "
            + "its share of that budget. Set this or database.")
    private DatabaseRef databaseRef;

    @Required
    @Size(min = 1, max = 200)
    @JsonPropertyDescription("The workloads that connect to the database. Each gets a static per-pod pool size; "
            + "together they never exceed the database's budget.")
    private List<TargetSpec> targets = new ArrayList<>();

    @JsonPropertyDescription("How pool sizes reach the workloads. Required unless dryRun is true.")
    private InjectionSpec injection;

    @JsonPropertyDescription("How the budget is shared between the targets: by weights (the default), following "
            + "their demand (Demand), or reporting what Demand would do (Recommend).")
    private AllocationSpec allocation;

    @Default("false")
    @JsonPropertyDescription("Compute and report in status without touching any workload.")
    private Boolean dryRun = false;

    @Default("Retain")
    @JsonPropertyDescription("On deletion of this policy: Retain (default) leaves the last values in place; Remove "
            + "takes back every value the operator set, which rolls the workloads once more.")
    private DeletionPolicy deletionPolicy = DeletionPolicy.Retain;

    public DatabaseRef getDatabaseRef() { return databaseRef; }
    public void setDatabaseRef(DatabaseRef databaseRef) { this.databaseRef = databaseRef; }
    public DatabaseSpec getDatabase() { return database; }
    public void setDatabase(DatabaseSpec database) { this.database = database; }
    public List<TargetSpec> getTargets() { return targets; }
    public void setTargets(List<TargetSpec> targets) { this.targets = targets; }
    public InjectionSpec getInjection() { return injection; }
    public void setInjection(InjectionSpec injection) { this.injection = injection; }
    public AllocationSpec getAllocation() { return allocation; }
    public void setAllocation(AllocationSpec allocation) { this.allocation = allocation; }
    public Boolean getDryRun() { return dryRun; }
    public void setDryRun(Boolean dryRun) { this.dryRun = dryRun; }
    public DeletionPolicy getDeletionPolicy() { return deletionPolicy; }
    public void setDeletionPolicy(DeletionPolicy deletionPolicy) { this.deletionPolicy = deletionPolicy; }
}
