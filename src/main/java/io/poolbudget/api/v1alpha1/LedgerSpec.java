package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.poolbudget.sizing.Limits;

/**
 * Opt-in (issue 57): the budget is split with other clusters' operators through a ledger kept in a PostgreSQL
 * database they all reach. This cluster's policies then split only the part the ledger gives it.
 */
public class LedgerSpec {
    @Required
    @Size(min = 1, max = 253)
    @JsonPropertyDescription("The ledger's name: the same in every cluster that shares this database's budget.")
    private String name;

    @Required
    @Size(min = 1, max = 63)
    @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
    @JsonPropertyDescription("This cluster's name in the ledger, different in every cluster (eu-1, us-2).")
    private String cluster;

    @Min(1)
    @Max(Limits.WEIGHT)
    @Default("1")
    @JsonPropertyDescription("This cluster's weight: the clusters whose operators renew their leases split the budget "
            + "in proportion to their weights.")
    private Integer weight = 1;

    @Required
    @Size(max = 253)
    @Pattern("^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$")
    @JsonPropertyDescription("A Secret in the operator's namespace with the keys jdbcUrl (jdbc:postgresql://host:port/db), "
            + "username and password of the account that owns the ledger's schema (docs/clusters.md gives the "
            + "statements). List it in the chart's ledger.secretNames.")
    private String secretName;

    @Size(min = 1, max = 63)
    @Pattern("^[a-z_][a-z0-9_]*$")
    @Default("poolbudget_ledger")
    @JsonPropertyDescription("The schema the ledger's tables live in.")
    private String schema = "poolbudget_ledger";

    @Min(10)
    @Max(3600)
    @Default("30")
    @JsonPropertyDescription("How long this cluster's claim stands without a renewal (the operator renews it every "
            + "third of it). A cluster whose lease has lapsed keeps its claim until the database shows none of its "
            + "connections.")
    private Integer leaseSeconds = 30;

    @Required
    @JsonPropertyDescription("How the database tells this cluster's connections from the others': exactly one of "
            + "clientCIDR, applicationNamePrefix or user.")
    private LedgerEvidence evidence;

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public String getCluster() { return cluster; }
    public void setCluster(String cluster) { this.cluster = cluster; }
    public Integer getWeight() { return weight; }
    public void setWeight(Integer weight) { this.weight = weight; }
    public String getSecretName() { return secretName; }
    public void setSecretName(String secretName) { this.secretName = secretName; }
    public String getSchema() { return schema; }
    public void setSchema(String schema) { this.schema = schema; }
    public Integer getLeaseSeconds() { return leaseSeconds; }
    public void setLeaseSeconds(Integer leaseSeconds) { this.leaseSeconds = leaseSeconds; }
    public LedgerEvidence getEvidence() { return evidence; }
    public void setEvidence(LedgerEvidence evidence) { this.evidence = evidence; }
}
