package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.poolbudget.sizing.Limits;

@ValidationRule(value = "!has(self.maxConnections) || self.reservedConnections < self.maxConnections", message = "database.reservedConnections must be below database.maxConnections: lower reservedConnections or raise maxConnections")
@ValidationRule(value = "has(self.cores) || has(self.budget) || has(self.pooler)", message = "database.cores is required unless database.budget or database.pooler is given: the database server's "
        + "CPU cores, an explicit budget of connections, or the pooler the apps connect through")
@ValidationRule(value = "!has(self.pooler) || !(has(self.cores) || has(self.budget) || has(self.maxConnections) || has(self.observe))", message = DatabaseSpec.POOLER_MESSAGE)
public class DatabaseSpec {
    /** The CRD's rule on spec.database.pooler, and the same words from plan and the operator. */
    public static final String POOLER_MESSAGE = "database.pooler sizes the apps against the client connections the "
            + "pooler accepts: remove database.cores, budget, maxConnections and observe, which describe a database "
            + "server (give them to the pooler's own policy)";

    @Size(max = Limits.NAME_LENGTH)
    @JsonPropertyDescription("A display name for the database (shown by kubectl get and the dashboard).")
    private String name;

    @Min(1)
    @Max(Limits.CORES)
    @JsonPropertyDescription("CPU cores of the database server. The database runs about this many queries at once. "
            + "Required unless budget is given.")
    private Integer cores;

    @Min(0)
    @Max(Limits.SPINDLES)
    @Default("0")
    @JsonPropertyDescription("Effective spindles: disks the database can keep busy while queries wait on I/O. "
            + "0 for a data set that fits in memory or for SSDs.")
    private Integer effectiveSpindles = 0;

    @Min(1)
    @Max(Limits.CONNECTIONS_PER_CORE)
    @Default("2")
    @JsonPropertyDescription("Connections per core in the budget formula cores x connectionsPerCore + effectiveSpindles (default 2).")
    private Integer connectionsPerCore = 2;

    @Min(1)
    @Max(Limits.CONNECTIONS)
    @JsonPropertyDescription("The server's max_connections. When set, the budget is capped at maxConnections - reservedConnections.")
    private Long maxConnections;

    @Min(0)
    @Max(Limits.CONNECTIONS)
    @Default("0")
    @JsonPropertyDescription("Connections this policy does not manage: superuser slots, admin tools, migrations, other clients.")
    private Long reservedConnections = 0L;

    @Min(1)
    @Max(Limits.CONNECTIONS)
    @JsonPropertyDescription("An explicit budget of connections for the targets, instead of the cores formula. "
            + "Still capped by maxConnections - reservedConnections.")
    private Long budget;

    @Min(1)
    @Max(Limits.INSTANCES)
    @Default("1")
    @JsonPropertyDescription("Identical instances behind one endpoint that spreads connections over them (read replicas "
            + "behind a reader endpoint). Every other figure here is one instance's; the budget is multiplied by this.")
    private Integer instances = 1;

    @JsonPropertyDescription("Read the database's own connection count (PostgreSQL) and report it beside the budget; "
            + "flags an app that ignores the injected size and clients the policy does not know.")
    private ObserveSpec observe;

    @JsonPropertyDescription("The apps connect through this pooler (PgBouncer) instead of to the database: their pools "
            + "are sized against the client connections it accepts, max_client_conn x its pods - reservedConnections. "
            + "The pooler's server side is a target of a policy of its own, with preset pgbouncer.")
    private PoolerRef pooler;

    public PoolerRef getPooler() { return pooler; }
    public void setPooler(PoolerRef pooler) { this.pooler = pooler; }
    public Integer getInstances() { return instances; }
    public void setInstances(Integer instances) { this.instances = instances; }
    public ObserveSpec getObserve() { return observe; }
    public void setObserve(ObserveSpec observe) { this.observe = observe; }
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public Integer getCores() { return cores; }
    public void setCores(Integer cores) { this.cores = cores; }
    public Integer getEffectiveSpindles() { return effectiveSpindles; }
    public void setEffectiveSpindles(Integer effectiveSpindles) { this.effectiveSpindles = effectiveSpindles; }
    public Integer getConnectionsPerCore() { return connectionsPerCore; }
    public void setConnectionsPerCore(Integer connectionsPerCore) { this.connectionsPerCore = connectionsPerCore; }
    public Long getMaxConnections() { return maxConnections; }
    public void setMaxConnections(Long maxConnections) { this.maxConnections = maxConnections; }
    public Long getReservedConnections() { return reservedConnections; }
    public void setReservedConnections(Long reservedConnections) { this.reservedConnections = reservedConnections; }
    public Long getBudget() { return budget; }
    public void setBudget(Long budget) { this.budget = budget; }
}
