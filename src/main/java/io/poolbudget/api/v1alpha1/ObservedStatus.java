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

    @JsonPropertyDescription("Connections of pods that are gone (ghosts): held from an address that no pod has now, "
            + "which a target's pod had, opened before the operator last saw that pod live (MariaDB/MySQL: idle since "
            + "before then). They count against the budget until the server "
            + "ends them (TCP keepalive, idle_session_timeout, wait_timeout) or the operator does "
            + "(observe.reapGhostsAfterSeconds). Unset while there are none.")
    private Long ghostConnections;

    @JsonPropertyDescription("The ghosts by address, most connections first: the first 5, and ghostAddresses says how "
            + "many addresses in all.")
    private List<Ghost> ghosts;

    @JsonPropertyDescription("How many addresses hold ghosts (ghosts lists the first 5).")
    private Integer ghostAddresses;

    public Long getGhostConnections() { return ghostConnections; }
    public void setGhostConnections(Long ghostConnections) { this.ghostConnections = ghostConnections; }
    public List<Ghost> getGhosts() { return ghosts; }
    public void setGhosts(List<Ghost> ghosts) { this.ghosts = ghosts; }
    public Integer getGhostAddresses() { return ghostAddresses; }
    public void setGhostAddresses(Integer ghostAddresses) { this.ghostAddresses = ghostAddresses; }

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

    /** Connections from an address whose pod is gone. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static class Ghost {
        @JsonPropertyDescription("The client address.")
        private String address;
        @JsonPropertyDescription("Connections from it opened before the operator last saw its pod live "
                + "(MariaDB/MySQL: idle since before then).")
        private Long connections;
        @JsonPropertyDescription("When the operator found that no pod has the address any more (RFC 3339).")
        private String since;
        @JsonPropertyDescription("The pod that had the address last, as namespace/name, and its workload (Kind/name).")
        private String lastPod;

        public Ghost() {}

        public Ghost(String address, long connections, String since, String lastPod) {
            this.address = address;
            this.connections = connections;
            this.since = since;
            this.lastPod = lastPod;
        }

        public String getAddress() { return address; }
        public void setAddress(String address) { this.address = address; }
        public Long getConnections() { return connections; }
        public void setConnections(Long connections) { this.connections = connections; }
        public String getSince() { return since; }
        public void setSince(String since) { this.since = since; }
        public String getLastPod() { return lastPod; }
        public void setLastPod(String lastPod) { this.lastPod = lastPod; }

        @Override
        public boolean equals(Object o) {
            return o instanceof Ghost g && Objects.equals(address, g.address)
                    && Objects.equals(connections, g.connections) && Objects.equals(since, g.since)
                    && Objects.equals(lastPod, g.lastPod);
        }

        @Override
        public int hashCode() {
            return Objects.hash(address, connections, since, lastPod);
        }
    }
}
