package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.poolbudget.sizing.Limits;

/**
 * The pooler a policy's apps connect through (spec.database.pooler): their pools count against the client connections
 * the pooler accepts, not against the database, whose side the pooler's own policy sizes.
 */
public class PoolerRef {

    @Required
    @Size(min = 1, max = Limits.NAME_LENGTH)
    @JsonPropertyDescription("The pooler's Deployment, in the policy's namespace (PgBouncer, sized against the database by "
            + "a policy with preset pgbouncer or pgbouncer-bitnami).")
    private String name;

    @Min(1)
    @Max(Limits.CONNECTIONS)
    @JsonPropertyDescription("Client connections one pooler pod accepts (PgBouncer's max_client_conn). Default: the "
            + "literal MAX_CLIENT_CONN or PGBOUNCER_MAX_CLIENT_CONN of the pooler's pod template, else PgBouncer's "
            + "default, 100. Set it when the pooler reads it from a file.")
    private Long maxClientConn;

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public Long getMaxClientConn() { return maxClientConn; }
    public void setMaxClientConn(Long maxClientConn) { this.maxClientConn = maxClientConn; }
}
