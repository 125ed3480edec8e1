package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.poolbudget.sizing.Limits;
import java.util.ArrayList;
import java.util.List;

@ValidationRule(value = "!has(self.database.observe)", message = "spec.database.observe is not available on a DatabaseBudget (its credentials Secret lives in a "
        + "namespace): remove it")
@ValidationRule(value = "!has(self.database.pooler)", message = DatabaseBudgetSpec.POOLER_MESSAGE)
public class DatabaseBudgetSpec {
    public static final String POOLER_MESSAGE = "spec.database.pooler is not available on a DatabaseBudget (a pooler "
            + "is a Deployment of one namespace): give it to the PoolPolicy of the apps behind the pooler";

    @Required
    @JsonPropertyDescription("The database: the same fields as a PoolPolicy's inline spec.database.")
    private DatabaseSpec database;

    @Required
    @JsonPropertyDescription("The namespaces whose PoolPolicies may draw on this budget ({} selects every namespace). "
            + "A policy elsewhere that references it is refused, with a condition saying so.")
    private LabelSelector namespaceSelector;

    @Min(1)
    @Max(Limits.WEIGHT)
    @Default("1")
    @JsonPropertyDescription("The weight of a selected namespace not listed in namespaces.")
    private Integer defaultWeight = 1;

    @Size(max = 1000)
    @JsonPropertyDescription("Weights of namespaces: the budget is split between the namespaces with a referencing "
            + "policy in proportion to their weights, then equally between a namespace's policies. Only this "
            + "resource's owner sets them, so a tenant cannot take another's connections.")
    private List<NamespaceWeight> namespaces = new ArrayList<>();

    @JsonPropertyDescription("Share this budget with other clusters' operators through a ledger in a PostgreSQL "
            + "database (docs/clusters.md). Without it, this cluster's policies split the whole budget.")
    private LedgerSpec ledger;

    public LedgerSpec getLedger() { return ledger; }
    public void setLedger(LedgerSpec ledger) { this.ledger = ledger; }
    public DatabaseSpec getDatabase() { return database; }
    public void setDatabase(DatabaseSpec database) { this.database = database; }
    public LabelSelector getNamespaceSelector() { return namespaceSelector; }
    public void setNamespaceSelector(LabelSelector namespaceSelector) { this.namespaceSelector = namespaceSelector; }
    public Integer getDefaultWeight() { return defaultWeight; }
    public void setDefaultWeight(Integer defaultWeight) { this.defaultWeight = defaultWeight; }
    public List<NamespaceWeight> getNamespaces() { return namespaces; }
    public void setNamespaces(List<NamespaceWeight> namespaces) { this.namespaces = namespaces; }

    public static class NamespaceWeight {
        @Required
        @Size(max = 63)
        @JsonPropertyDescription("A namespace's name.")
        private String name;

        @Required
        @Min(1)
        @Max(Limits.WEIGHT)
        @JsonPropertyDescription("Its weight.")
        private Integer weight;

        public String getName() { return name; }
        public void setName(String name) { this.name = name; }
        public Integer getWeight() { return weight; }
        public void setWeight(Integer weight) { this.weight = weight; }
    }
}
