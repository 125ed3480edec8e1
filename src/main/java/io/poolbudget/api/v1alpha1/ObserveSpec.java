package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * Opt-in: the operator reads the database's own view of its connections (PostgreSQL's pg_stat_activity, MariaDB's and
 * MySQL's PROCESSLIST).
 */
@ValidationRule(value = "(has(self.scope) && self.scope == 'User') == has(self.user)", message = "observe.user is "
        + "required with scope User and only allowed with it: name the account the apps log in as (the Secret's is the "
        + "monitoring account)")
@ValidationRule(value = "!has(self.database) || !has(self.scope) || self.scope == 'Database'", message = "observe.database "
        + "is only allowed with scope Database: remove it, or set scope: Database")
@ValidationRule(value = "!has(self.reapGhostsAfterSeconds) || !has(self.groupBy) || self.groupBy == 'ClientAddress'", message = "observe.reapGhostsAfterSeconds needs groupBy ClientAddress: ghosts are told by client address, "
        + "so with ApplicationName none is found; remove it, or set groupBy: ClientAddress")
public class ObserveSpec {
    @Required
    @Size(max = 253)
    @Pattern("^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$")
    @JsonPropertyDescription("A Secret in the policy's namespace with the keys jdbcUrl (jdbc:postgresql://host:port/db; "
            + "jdbc:mariadb:// or jdbc:mysql:// for MariaDB and MySQL), username and password of a read-only "
            + "monitoring account (PostgreSQL: GRANT pg_monitor TO it; MariaDB/MySQL: GRANT PROCESS ON *.*, and "
            + "SELECT ON performance_schema.* for groupBy ApplicationName). The operator keeps one connection open "
            + "with it.")
    private String secretName;

    @Default("ClientAddress")
    @JsonPropertyDescription("How connections are attributed: ClientAddress (to the pods of the targets by their IP; "
            + "others by address) or ApplicationName (by the application_name the clients set; on MariaDB/MySQL the "
            + "connection attribute program_name, which needs performance_schema=ON).")
    private ObserveGroupBy groupBy = ObserveGroupBy.ClientAddress;

    @Default("Database")
    @JsonPropertyDescription("Which of the server's client connections are counted against the budget. Database (the "
            + "default): those to one database, observe.database or else the one the Secret's jdbcUrl names; on "
            + "MariaDB/MySQL a session counts for the database it has selected now, and one with none selected for no "
            + "database. User: those of the account observe.user names, on every database. Server: every client "
            + "connection of the server, for a budget of the whole server. The server's max_connections is held "
            + "against the budget in every scope.")
    private ObserveScope scope = ObserveScope.Database;

    @Size(min = 1, max = 64)
    @JsonPropertyDescription("With scope Database: the database counted (PostgreSQL's datname, MariaDB's and MySQL's "
            + "schema). Default: the database the Secret's jdbcUrl names; required when that names none.")
    private String database;

    @Size(min = 1, max = 80)
    @JsonPropertyDescription("With scope User, required: the account the apps log in as (PostgreSQL's usename, "
            + "MariaDB's and MySQL's USER), not the monitoring account of the Secret.")
    private String user;

    @Min(10)
    @Max(3600)
    @Default("30")
    @JsonPropertyDescription("Seconds between two reads of the database's connections (10 to 3600, default 30).")
    private Integer intervalSeconds = 30;

    @Min(30)
    @Max(86400)
    @JsonPropertyDescription("Opt-in: end the connections of a pod that is gone (ghosts: backends a lost node or a "
            + "killed pod left open, which the server keeps until TCP keepalive notices) this many seconds after the "
            + "operator found that no pod has their address (30 to 86400; unset: they are reported, never ended; "
            + "groupBy ClientAddress only). Only backends of an address the operator saw a target's pod hold, opened "
            + "before it last saw that pod live, are ended (PostgreSQL: pg_terminate_backend, not a superuser's, the "
            + "account needs pg_signal_backend; MariaDB/MySQL, where a connection's start is not known: those idle "
            + "since before then, by KILL CONNECTION, the account needs CONNECTION ADMIN or SUPER).")
    private Integer reapGhostsAfterSeconds;

    public String getSecretName() { return secretName; }
    public void setSecretName(String secretName) { this.secretName = secretName; }
    public ObserveGroupBy getGroupBy() { return groupBy; }
    public void setGroupBy(ObserveGroupBy groupBy) { this.groupBy = groupBy; }
    public ObserveScope getScope() { return scope; }
    public void setScope(ObserveScope scope) { this.scope = scope; }
    public String getDatabase() { return database; }
    public void setDatabase(String database) { this.database = database; }
    public String getUser() { return user; }
    public void setUser(String user) { this.user = user; }
    public Integer getIntervalSeconds() { return intervalSeconds; }
    public void setIntervalSeconds(Integer intervalSeconds) { this.intervalSeconds = intervalSeconds; }
    public Integer getReapGhostsAfterSeconds() { return reapGhostsAfterSeconds; }
    public void setReapGhostsAfterSeconds(Integer seconds) { this.reapGhostsAfterSeconds = seconds; }
}
