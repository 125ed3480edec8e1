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
 * opened before it lost its pod. Each is named once by a Warning, and where spec.database.observe.reapGhostsAfterSeconds
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

    public GhostWatch(Ghosts ghosts, DatabaseReader reader, KubernetesClient client, Say say, Clock clock) {
        this.ghosts = ghosts;
        this.reader = reader;
        this.client = client;
        this.say = say;
        this.clock = clock;
    }

    /** The grace: how long an address must be without its pod before its connections are ghosts. */
    public static Duration grace(ObserveSpec spec) {
        return Duration.ofSeconds(spec.getIntervalSeconds() == null ? 30 : spec.getIntervalSeconds());
    }

    /** {@code read} with its ghosts; as it is where none is found or the pods cannot be looked up. */
    Observation look(PoolPolicy policy, ObserveSpec spec, Observation read, Set<String> cached,
            DatabaseReader.Credentials credentials, ClientScope scope) {
        String key = ObservationSource.key(policy);
        Map<String, String> holders = holders(ghosts.unplaced(key, read.byClient(), cached));
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
                    List<Long> ids = GhostQueries.ids(c, dialect, scope, s.address(), s.since(), now);
                    long left = ids.size() - reap(policy, spec, s, ids, now, dialect, user, c);
                    if (left > 0) {
                        list.add(new Observation.Ghost(s.address(), left, s.since(), s.pod().text()));
                    }
                    if (left > 0 && !s.warned()) {
                        ghosts.said(key, s.address(), true, false);
                        say.say(policy, "Warning", GHOSTS, left + " connections from " + s.address() + ", of pod "
                                + s.pod().text() + " that is gone (since " + s.since() + "), are still held by the "
                                + "server: they count against the budget and raises wait while they last. To end "
                                + "such connections: " + GhostQueries.fix(dialect));
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

    /**
     * Ends the suspect's backends {@code ids} where reaping is on and its time has come; returns how many ended. A
     * refusal (the account may not) is a Warning naming the GRANT, once for the address.
     */
    private int reap(PoolPolicy policy, ObserveSpec spec, Ghosts.Suspect s, List<Long> ids, Instant now,
            Dialect dialect, String user, java.sql.Connection c) throws SQLException {
        Integer after = spec.getReapGhostsAfterSeconds();
        if (after == null || ids.isEmpty() || now.isBefore(s.since().plusSeconds(after))) {
            return 0;
        }
        int ended = 0;
        try {
            for (long id : ids) {
                ended += GhostQueries.end(c, dialect, id) ? 1 : 0;
            }
        } catch (SQLException e) {
            if (!GhostQueries.refused(dialect, e)) {
                throw e;
            }
            if (!s.refused()) {
                ghosts.said(ObservationSource.key(policy), s.address(), false, true);
                say.say(policy, "Warning", REAP_REFUSED, "the monitoring account may not end the " + ids.size()
                        + " connections from " + s.address() + " of pod " + s.pod().text() + " that is gone ("
                        + e.getMessage() + "): " + GhostQueries.grant(dialect, user) + ", or unset "
                        + "spec.database.observe.reapGhostsAfterSeconds");
            }
        }
        if (ended > 0) {
            say.say(policy, "Normal", REAPED, "ended " + ended + " connections from " + s.address() + " of pod "
                    + s.pod().text() + ", gone since " + s.since() + " (spec.database.observe.reapGhostsAfterSeconds: "
                    + after + ")");
        }
        return ended;
    }

    /**
     * For each address, the uid of the pod that has it now, in any namespace ("" for a pod without one); null where
     * the pods cannot be listed: then no address is judged lost.
     */
    private Map<String, String> holders(Set<String> addresses) {
        Map<String, String> holders = new HashMap<>();
        try {
            for (String address : addresses) {
                client.pods().inAnyNamespace().withField("status.podIP", address)
                        .withoutField("status.phase", "Succeeded").withoutField("status.phase", "Failed").list()
                        .getItems().stream().findFirst().ifPresent(p -> holders.put(address,
                                p.getMetadata().getUid() == null ? "" : p.getMetadata().getUid()));
            }
        } catch (KubernetesClientException e) {
            LOG.debugf("the pods at %s cannot be listed (%d): no ghost is judged", addresses, e.getCode());
            return null;
        }
        return holders;
    }
}
