package io.poolbudget.observe;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.polling.PerResourcePollingConfigurationBuilder;
import io.javaoperatorsdk.operator.processing.event.source.polling.PerResourcePollingEventSource;
import io.poolbudget.api.v1alpha1.ObserveGroupBy;
import io.poolbudget.api.v1alpha1.ObserveScope;
import io.poolbudget.api.v1alpha1.ObserveSpec;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.status.Observation;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads each observing policy's database on its own timer, outside the reconcile: the Secret by a GET
 * (the only Secret access the operator has, and only with spec.database.observe), then
 * the database's own count ({@link DatabaseReader}), and where clients are told apart by address, the pods at those
 * addresses the operator does not cache ({@link ClientPods}). JOSDK caches the latest {@link Observation} per policy and triggers a reconcile
 * only when it differs from the one before; reconcile reads it from that cache.
 */
public final class ObservationSource {
    public static final String JDBC_URL = "jdbcUrl";
    public static final String USERNAME = "username";
    public static final String PASSWORD = "password";

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(ObservationSource.class);
    /** The policies whose last read failed unexpectedly (said once each). */
    private static final Set<String> FAILING = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private ObservationSource() {}

    /** {@code cached}: a namespace's pods the operator caches (those it sized), by address. */
    public static PerResourcePollingEventSource<Observation, PoolPolicy, String> create(
            EventSourceContext<PoolPolicy> context,
            KubernetesClient client, DatabaseReader reader, Function<String, Map<String, Ghosts.Present>> cached) {
        return create(context, client, reader, cached, null);
    }

    /** {@code ghosts}: what finds the connections of pods that are gone after each read (null: none is looked for). */
    public static PerResourcePollingEventSource<Observation, PoolPolicy, String> create(
            EventSourceContext<PoolPolicy> context, KubernetesClient client, DatabaseReader reader,
            Function<String, Map<String, Ghosts.Present>> cached, GhostWatch ghosts) {
        PerResourcePollingEventSource.ResourceFetcher<Observation, PoolPolicy> fetcher = new PerResourcePollingEventSource.ResourceFetcher<>() {
            @Override
            public Set<Observation> fetchResources(PoolPolicy policy) {
                ObserveSpec spec = spec(policy);
                return spec == null ? Set.of() : Set.of(guarded(policy,
                        () -> read(client, reader, policy, spec, cached, ghosts)));
            }

            @Override
            public Optional<Duration> fetchDelay(Set<Observation> last, PoolPolicy policy) {
                return Optional.of(interval(spec(policy)));
            }
        };
        var config = new PerResourcePollingConfigurationBuilder<Observation, PoolPolicy, String>(fetcher,
                Duration.ofSeconds(30))
                .withName("observations").withRegisterPredicate(p -> spec(p) != null)
                .withResourceIDMapper(o -> "observation").build();
        return new PerResourcePollingEventSource<>(Observation.class, context, config);
    }

    /** How often the policy's database is read: observe.intervalSeconds, 30 s where unset. */
    static Duration interval(ObserveSpec spec) {
        return Duration.ofSeconds(spec == null || spec.getIntervalSeconds() == null ? 30 : spec.getIntervalSeconds());
    }

    /**
     * A read that cannot stop the policy's timer: JOSDK's poll ends for good at an unexpected exception, so one
     * becomes the failed reading ReadFailed, logged once at warn until a read succeeds again.
     */
    static Observation guarded(PoolPolicy policy, java.util.function.Supplier<Observation> read) {
        String key = key(policy);
        try {
            Observation o = read.get();
            FAILING.remove(key);
            return o;
        } catch (RuntimeException e) {
            if (FAILING.add(key)) {
                LOG.warnf(e, "reading the database of PoolPolicy %s failed unexpectedly; it is tried again each "
                        + "observe interval", key);
            }
            return Observation.failed("ReadFailed", "reading the database failed unexpectedly ("
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + "): the operator's "
                    + "log names the cause once at warn; check the Secret's jdbcUrl, and report it if that is right");
        }
    }

    public static ObserveSpec spec(PoolPolicy p) {
        return p.getSpec() == null || p.getSpec().getDatabase() == null ? null : p.getSpec().getDatabase().getObserve();
    }

    public static String key(PoolPolicy p) {
        return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    }

    private static Observation read(KubernetesClient client, DatabaseReader reader, PoolPolicy policy,
            ObserveSpec spec, Function<String, Map<String, Ghosts.Present>> cached, GhostWatch ghosts) {
        String ns = policy.getMetadata().getNamespace();
        Secret secret;
        try {
            secret = client.secrets().inNamespace(ns).withName(spec.getSecretName()).get();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 403) {
                return Observation.failed("SecretForbidden", "the operator may not read it: list it in the chart's "
                        + "observe.secretNames (it grants get on those names only)");
            }
            return Observation.failed("SecretUnreadable",
                    "the API server answered " + e.getCode() + " when reading it");
        }
        if (secret == null) {
            return Observation.failed("SecretNotFound",
                    "no such Secret in namespace " + ns + ": create it with the keys "
                            + JDBC_URL + ", " + USERNAME + " and " + PASSWORD);
        }
        String url = value(secret, JDBC_URL);
        String user = value(secret, USERNAME);
        String password = value(secret, PASSWORD);
        if (url == null || user == null || password == null || !DatabaseReader.supports(url)) {
            return Observation.failed("SecretInvalid",
                    "it needs the keys " + JDBC_URL + " (jdbc:postgresql://host:port/db, or jdbc:mariadb:// or "
                            + "jdbc:mysql:// for MariaDB and MySQL), " + USERNAME + " and " + PASSWORD);
        }
        ClientScope scope = ClientScope.of(spec, url);
        if (!scope.named()) {
            return Observation.failed(scope.scope() == ObserveScope.User ? "UserNotNamed" : "DatabaseNotNamed",
                    scope.unnamed(url));
        }
        var credentials = new DatabaseReader.Credentials(url, user, password);
        Observation read = reader.read(key(policy), credentials, spec.getGroupBy(), scope);
        if (read.failure() != null || spec.getGroupBy() == ObserveGroupBy.ApplicationName) {
            return read;
        }
        Map<String, Ghosts.Present> sized = cached.apply(ns);
        read = read.withClientPods(ClientPods.find(client, ns, read.byClient().keySet(), sized.keySet()));
        return ghosts == null ? read : ghosts.look(policy, spec, read, sized, credentials, scope);
    }

    /** A Secret's key, from data (base64, trimmed) or stringData; null where it has none. */
    public static String value(Secret s, String key) {
        if (s.getData() != null && s.getData().get(key) != null) {
            return new String(Base64.getDecoder().decode(s.getData().get(key)), StandardCharsets.UTF_8).trim();
        }
        return s.getStringData() == null ? null : s.getStringData().get(key);
    }
}
