package io.poolbudget.observe;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.poolbudget.api.v1alpha1.ObserveSpec;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.status.Observation;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The ghosts of one read of a policy's database, found after the read on the observation's own timer: the remembered
 * addresses that no pod has now ({@link Ghosts}), looked up among every namespace's pods; past the grace (one observe
 * interval: a pod that ended cleanly has closed its connections by the next read), the backends of such an address
 * opened before the operator last saw its pod live. Each is named once by a Warning, and where spec.database.observe.reapGhostsAfterSeconds
 * is set, ended once that long has passed since the address lost its pod, each reap an Event.
 */
public final class GhostWatch {
    private static final Logger LOG = Logger.getLogger(GhostWatch.class);
    public static final String GHOSTS = "GhostConnections";
    public static final String REAPED = "GhostConnectionsEnded";
    public static final String REAP_REFUSED = "GhostReapRefused";

    /** An Event on a policy: type Normal or Warning. */
    @FunctionalInterface
    public interface Say {
        void say(PoolPolicy policy, String type, String reason, String message);
    }

    private final Ghosts ghosts;
    private final DatabaseReader reader;
    private final KubernetesClient client;
    private final Say say;
    private final Clock clock;
    private volatile boolean unlistedSaid;

    public GhostWatch(Ghosts ghosts, DatabaseReader reader, KubernetesClient client, Say say, Clock clock) {
        this.ghosts = ghosts;
        this.reader = reader;
        this.client = client;
        this.say = say;
        this.clock = clock;
    }

    /** The grace: how long an address must be without its pod before its connections are ghosts: one read's interval. */
    public static Duration grace(ObserveSpec spec) {
        return ObservationSource.interval(spec);
    }

    /** {@code read} with its ghosts; as it is where none is found or the pods cannot be looked up. */
    Observation look(PoolPolicy policy, ObserveSpec spec, Observation read, Map<String, Ghosts.Present> cached,
            DatabaseReader.Credentials credentials, ClientScope scope) {
        String key = ObservationSource.key(policy);
        Map<String, Ghosts.Present> holders = holders(ghosts.unplaced(key, read.byClient(), cached));
        if (holders == null) {
            return read;
        }
        Instant now = clock.instant();
        var suspects = ghosts.judge(key, read.byClient(), cached, holders, now, grace(spec));
        if (suspects.isEmpty()) {
            return read;
        }
        Dialect dialect = Dialect.of(credentials.jdbcUrl());
        String user = credentials.username();
        try {
            List<Observation.Ghost> found = reader.onPool(key, c -> {
                List<Observation.Ghost> list = new ArrayList<>();
                for (var s : suspects) {
                    try {
                        long left = left(policy, spec, s, now, dialect, user, scope, c);
                        if (left > 0) {
                            list.add(new Observation.Ghost(s.address(), left, s.since(), s.pod().text()));
                        }
                    } catch (SQLException e) { // this address's ghosts untold this time; the others' still are
                        LOG.debugf("the ghosts of %s at %s could not be read: %s", key, s.address(), e.getMessage());
                    }
                }
                return list;
            });
            return found == null ? read : read.withGhosts(found, GhostQueries.fix(dialect));
        } catch (SQLException e) {
            LOG.debugf("the ghosts of %s could not be read: %s", key, e.getMessage());
            return read;
        }
    }

    /** The suspect's ghosts left after a reap where one is due, named once by a Warning. */
    private long left(PoolPolicy policy, ObserveSpec spec, Ghosts.Suspect s, Instant now, Dialect dialect,
            String user, ClientScope scope, java.sql.Connection c) throws SQLException {
        long age = GhostQueries.age(s.lastLive(), now);
        reap(policy, spec, s, now, dialect, user, scope, age, c);
        long left = GhostQueries.ids(c, dialect, scope, s.address(), age).size();
        if (left > 0 && !s.warned()) {
            ghosts.said(ObservationSource.key(policy), s.address(), true, false);
            say.say(policy, "Warning", GHOSTS, left + " connections from " + s.address() + ", opened before pod "
                    + s.pod().text() + " was last seen (" + s.lastLive() + "; no pod has the address since "
                    + s.since() + "), are still held by the server: they count against the budget and raises wait "
                    + "while they last. To end such connections: " + GhostQueries.fix(dialect));
        }
        return left;
    }

    /**
     * Ends the suspect's ghosts where reaping is on and its time has come; each reap an Event with its count. A
     * refusal (the account may not) is a Warning naming the GRANT, once for the address.
     */
    private void reap(PoolPolicy policy, ObserveSpec spec, Ghosts.Suspect s, Instant now, Dialect dialect,
            String user, ClientScope scope, long age, java.sql.Connection c) throws SQLException {
        Integer after = spec.getReapGhostsAfterSeconds();
        if (after == null || now.isBefore(s.since().plusSeconds(after))) {
            return;
        }
        var reaped = GhostQueries.end(c, dialect, scope, s.address(), age);
        if (reaped.ended() > 0) {
            say.say(policy, "Normal", REAPED, "ended " + reaped.ended() + " connections from " + s.address()
                    + " opened before pod " + s.pod().text() + " was last seen (" + s.lastLive() + "), no pod at "
                    + "the address since " + s.since() + " (spec.database.observe.reapGhostsAfterSeconds: " + after
                    + ")");
        }
        if (reaped.refusal() != null && !s.refused()) {
            ghosts.said(ObservationSource.key(policy), s.address(), false, true);
            say.say(policy, "Warning", REAP_REFUSED, "the monitoring account may not end the connections from "
                    + s.address() + " of pod " + s.pod().text() + " that is gone (" + reaped.refusal().getMessage()
                    + "): " + GhostQueries.grant(dialect, user) + ", or unset "
                    + "spec.database.observe.reapGhostsAfterSeconds");
        }
        if (reaped.failure() != null) {
            LOG.debugf("ending the ghosts of %s at %s failed: %s", ObservationSource.key(policy), s.address(),
                    reaped.failure().getMessage());
        }
    }

    /**
     * For each address, the uid of the pod that has it now, in any namespace ("" for a pod without one); null where
     * the pods cannot be listed: then no address is judged lost.
     */
    private Map<String, Ghosts.Present> holders(Set<String> addresses) {
        Map<String, Ghosts.Present> holders = new HashMap<>();
        try {
            for (String address : addresses) {
                var at = Ghosts.byAddress(client.pods().inAnyNamespace().withField("status.podIP", address)
                        .withoutField("status.phase", "Succeeded").withoutField("status.phase", "Failed").list()
                        .getItems().stream()).get(address);
                if (at != null) {
                    holders.put(address, at);
                }
            }
        } catch (KubernetesClientException e) {
            if (!unlistedSaid) { // once: with watchNamespaces the operator may not list every namespace's pods
                unlistedSaid = true;
                LOG.warnf("ghost connections are not judged: the pods at a client address cannot be listed in every "
                        + "namespace (the API server answered %d); with watchNamespaces the operator may not list "
                        + "them, so ghosts are not reported", e.getCode());
            }
            LOG.debugf("the pods at %s cannot be listed (%d): no ghost is judged", addresses, e.getCode());
            return null;
        }
        return holders;
    }
}
