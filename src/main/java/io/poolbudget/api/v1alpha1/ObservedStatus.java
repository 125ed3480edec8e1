package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** What the database itself reported at the last read (spec.database.observe). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ObservedStatus {
    @JsonPropertyDescription("What connections counts (spec.database.observe.scope): database <name>, user <name>, or "
            + "the server.")
    private String scope;

    @JsonPropertyDescription("Client connections the server holds now in that scope, the operator's own monitoring "
            + "connection left out.")
    private Long connections;

    @JsonPropertyDescription("The server's max_connections.")
    private Long maxConnections;

    @JsonPropertyDescription("The server's superuser_reserved_connections.")
    private Long superuserReservedConnections;

    @JsonPropertyDescription("Connections by client, largest first: a target (Kind/name, by its pods' addresses), a "
            + "client address, or an application name; at most 10, the rest summed as 'other'.")
    private List<ObservedClient> clients = new ArrayList<>();

    public String getScope() { return scope; }
    public void setScope(String scope) { this.scope = scope; }
    public Long getConnections() { return connections; }
    public void setConnections(Long connections) { this.connections = connections; }
    public Long getMaxConnections() { return maxConnections; }
    public void setMaxConnections(Long maxConnections) { this.maxConnections = maxConnections; }
    public Long getSuperuserReservedConnections() { return superuserReservedConnections; }
    public void setSuperuserReservedConnections(Long v) { this.superuserReservedConnections = v; }
    public List<ObservedClient> getClients() { return clients; }
    public void setClients(List<ObservedClient> clients) { this.clients = clients; }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class ObservedClient {
        private String client;
        private Long connections;

        public ObservedClient() {}

        public ObservedClient(String client, long connections) {
            this.client = client;
            this.connections = connections;
        }

        public String getClient() { return client; }
        public void setClient(String client) { this.client = client; }
        public Long getConnections() { return connections; }
        public void setConnections(Long connections) { this.connections = connections; }

        @Override
        public boolean equals(Object o) {
            return o instanceof ObservedClient c && Objects.equals(client, c.client)
                    && Objects.equals(connections, c.connections);
        }

        @Override
        public int hashCode() {
            return Objects.hash(client, connections);
        }
    }
}
