package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * spec.database.observe on the real node: the operator reads PostgreSQL's own pg_stat_activity with
 * a read-only monitoring role and reports, per target, the count PostgreSQL gives for the example
 * app's pods (compared with the test's own sampler); flags an app that ignores the injected variable;
 * and turns a refused login into a condition that clears when the Secret is fixed. On a server shared by two
 * databases, each policy counts its own database's connections (issue 54), and scope Server counts them all.
 */
@Order(4)
// Its tests run side by side, two at a time: each has its own namespace, app, policy and monitoring Secret
@Execution(ExecutionMode.CONCURRENT)
@ExtendWith(Alone.Turns.class)
@Alone.AtMost(2)
class ObservedConnectionsE2E extends OperatorTestBase {
    private static final String JDBC = System.getProperty("poolbudget.e2e.jdbc",
            "jdbc:postgresql://10.88.0.1:5434/app");
    private static final String POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: %s}
            spec:
              database:
                %s
                observe: {secretName: %s, intervalSeconds: 10%s}
              injection: {preset: %s}
              targets: [{name: %s}]
            """;

    @BeforeAll
    static void start() {
        startOperator("observe", "0s");
    }

    @Test
    void reportsPostgresCountForTheAppAndFlagsAnAppThatIgnoresTheVariable() {
        secret("monitor");
        create(RealApps.app(ns, "good", 2, Map.of(), 0));
        applyPolicy(policy("good-db", "spring-boot-hikari", "good"));
        awaitPolicy("good-db", p -> "Applied".equals(target(p, "good").getState()));
        awaitRolledOut("good");
        try (var sampler = ConnectionSampler.start(Set.of(RealApps.appName(ns, "good")))) {
            // the size may still change once (old pods seen terminating lower it): compare on fresh status each time
            Awaitility.await("the operator's count of app good equal to PostgreSQL's").atMost(90, TimeUnit.SECONDS)
                    .pollInterval(500, TimeUnit.MILLISECONDS).until(() -> {
                        var p = client.resources(PoolPolicy.class).inNamespace(ns).withName("good-db").get();
                        var t = target(p, "good");
                        return "Applied".equals(t.getState()) && t.getAppliedPoolSize() != null
                                && sampler.now() == 2L * t.getAppliedPoolSize()
                                && Long.valueOf(sampler.now()).equals(t.getObservedConnections())
                                && condition(p, "ObservationFailing", "False");
                    });
            PoolPolicy seen = client.resources(PoolPolicy.class).inNamespace(ns).withName("good-db").get();
            int applied = target(seen, "good").getAppliedPoolSize();
            System.out.printf("E2E observe: PostgreSQL %d connections of app good, the operator reports %d "
                    + "(its observe scope %d, max_connections %d)%n", sampler.now(),
                    target(seen, "good").getObservedConnections(),
                    seen.getStatus().getObserved().getConnections(),
                    seen.getStatus().getObserved().getMaxConnections());
            assertThat(seen.getStatus().getObserved().getMaxConnections()).isEqualTo(100);
            assertThat(seen.getStatus().getObserved().getClients()).anySatisfy(c -> {
                assertThat(c.getClient()).isEqualTo("Deployment/good");
                assertThat(c.getConnections()).isEqualTo(2L * applied);
            });
        }

        // The Spring app reads SPRING_DATASOURCE_HIKARI_*; a policy that writes HIKARI_* is ignored by it
        create(RealApps.app(ns, "deaf", 2, Map.of(), 0));
        applyPolicy(policy("deaf-db", "hikari-env", "deaf"));
        awaitPolicy("deaf-db", p -> "Applied".equals(target(p, "deaf").getState()));
        awaitRolledOut("deaf");
        // mid-rollout its unlabelled old pods count as unknown clients; once rolled out, all 20 are its own
        PoolPolicy flagged = awaitPolicy("deaf-db", p -> condition(p, "ObservedOverBudget", "True")
                && Long.valueOf(20).equals(target(p, "deaf").getObservedConnections()));
        var c = flagged.getStatus().getConditions().stream().filter(x -> x.getType().equals("ObservedOverBudget"))
                .findFirst().orElseThrow();
        System.out.println("E2E observe: " + c.getReason() + ": " + c.getMessage());
        assertThat(c.getReason()).isEqualTo("ConnectionsOverBudget");
        assertThat(c.getMessage()).contains("Deployment/deaf: 20 from its pods, which declare "
                + target(flagged, "deaf").getLiveConnections());
        assertThat(target(flagged, "deaf").getObservedConnections()).isEqualTo(20);
        Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> client.v1().events().inNamespace(ns).list()
                .getItems().stream().anyMatch(e -> "ConnectionsOverBudget".equals(e.getReason())));
    }

    @Test
    void aRefusedLoginIsAConditionAndClearsWhenTheSecretIsFixed() throws Exception {
        secret("not-the-password");
        create(RealApps.app(ns, "app", 1, Map.of(), 0));
        applyPolicy(policy("db", "spring-boot-hikari", "app"));
        // the plan goes on without the database: the app is sized and Ready while the login is refused
        PoolPolicy refused = awaitPolicy("db", p -> condition(p, "ObservationFailing", "True")
                && condition(p, "Ready", "True"));
        var c = refused.getStatus().getConditions().stream().filter(x -> x.getType().equals("ObservationFailing"))
                .findFirst().orElseThrow();
        System.out.println("E2E observe: " + c.getReason() + ": " + c.getMessage());
        assertThat(c.getReason()).isEqualTo("LoginFailed");
        assertThat(c.getMessage()).contains("password authentication failed").doesNotContain("not-the-password");
        var ready = Scrape.HTTP
                .send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://localhost:" + operator.port() + "/q/health/ready")).build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding());
        assertThat(ready.statusCode()).as("the operator stays ready").isEqualTo(200);

        secret("monitor");
        awaitPolicy("db", p -> condition(p, "ObservationFailing", "False") && p.getStatus().getObserved() != null);
    }

    /**
     * Issue 54: databases orders and billing on the test server (hack/postgres.sh), an app and a policy each. Each
     * policy's count is its own pods' connections, not the other's nor the other tests' (database app) beside them.
     */
    @Test
    void onAServerSharedByTwoDatabasesEachPolicyCountsItsOwn() {
        Map<String, String> databases = Map.of("orders", "orders", "billing", "billing");
        databases.forEach((app, database) -> {
            client.resource(new SecretBuilder().withNewMetadata().withName("pg-" + database).endMetadata()
                    .withStringData(Map.of("jdbcUrl", JDBC.substring(0, JDBC.lastIndexOf('/') + 1) + database,
                            "username", "poolbudget_monitor", "password", "monitor"))
                    .build()).inNamespace(ns).serverSideApply();
            var d = RealApps.app(ns, app, app.equals("orders") ? 2 : 1, Map.of(), 0);
            d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()
                    .add(new EnvVar("DB_NAME", database, null));
            create(d);
            applyPolicy(POLICY.formatted(app + "-db", "budget: 20", "pg-" + database, "", "spring-boot-hikari", app));
        });
        databases.keySet().forEach(app -> {
            awaitPolicy(app + "-db", p -> "Applied".equals(target(p, app).getState()));
            awaitRolledOut(app);
        });
        String ordersApp = RealApps.appName(ns, "orders");
        String billingApp = RealApps.appName(ns, "billing");
        try (var sampler = ConnectionSampler.start(Set.of(ordersApp, billingApp))) {
            for (String app : databases.keySet()) {
                String name = RealApps.appName(ns, app);
                Awaitility.await("policy " + app + "-db counting database " + app + " equal to its pods' connections")
                        .atMost(120, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS).until(() -> {
                            var p = client.resources(PoolPolicy.class).inNamespace(ns).withName(app + "-db").get();
                            var t = target(p, app);
                            long own = sampler.lastByApp().getOrDefault(name, 0);
                            return own > 0 && p.getStatus().getObserved() != null
                                    && Long.valueOf(own).equals(p.getStatus().getObserved().getConnections())
                                    && Long.valueOf(own).equals(t.getObservedConnections())
                                    && condition(p, "ObservationFailing", "False");
                        });
                var seen = client.resources(PoolPolicy.class).inNamespace(ns).withName(app + "-db").get();
                System.out.printf("E2E observe scope: policy %s-db: %s holds %d, its pods %d (PostgreSQL: %s)%n", app,
                        seen.getStatus().getObserved().getScope(), seen.getStatus().getObserved().getConnections(),
                        target(seen, app).getObservedConnections(), sampler.lastByApp());
                assertThat(seen.getStatus().getObserved().getScope()).isEqualTo("database " + app);
                assertThat(seen.getStatus().getConditions()).anySatisfy(c -> {
                    assertThat(c.getType()).isEqualTo("ObservedOverBudget");
                    assertThat(c.getMessage()).startsWith("database " + app + " holds ");
                });
            }

            // the whole server is still there to count: billing's policy with scope Server sees orders' too
            applyPolicy(
                    POLICY.formatted("billing-db", "budget: 20", "pg-billing", ", scope: Server", "spring-boot-hikari",
                            "billing"));
            Awaitility.await("scope Server counting both databases").atMost(120, TimeUnit.SECONDS)
                    .pollInterval(500, TimeUnit.MILLISECONDS).until(() -> {
                        var p = client.resources(PoolPolicy.class).inNamespace(ns).withName("billing-db").get();
                        var observed = p.getStatus().getObserved();
                        long both = sampler.lastByApp().getOrDefault(ordersApp, 0)
                                + sampler.lastByApp().getOrDefault(billingApp, 0);
                        return observed != null && "the server".equals(observed.getScope())
                                && observed.getConnections() >= both && Long.valueOf(sampler.lastByApp()
                                        .getOrDefault(billingApp, 0)).equals(target(p, "billing")
                                                .getObservedConnections());
                    });
            var server = client.resources(PoolPolicy.class).inNamespace(ns).withName("billing-db").get();
            System.out.printf("E2E observe scope: policy billing-db, scope Server: %s holds %d (orders' and billing's "
                    + "pods %s, the rest other tests' and the operator's)%n",
                    server.getStatus().getObserved()
                            .getScope(),
                    server.getStatus().getObserved().getConnections(), sampler.lastByApp());
        }
    }

    private static String policy(String name, String preset, String target) {
        return POLICY.formatted(name, "cores: 4", "pg-monitor", "", preset, target);
    }

    /**
     * Issue 54, item 3: a pod whose network is cut and that is then killed never closes its connections; with the
     * server's keepalives off for its role (the kernel's 2 hours), PostgreSQL keeps them while its replacement opens
     * its own. They are reported as ghosts within 2 observe periods, named by a Warning with the fix; a reap the
     * account may not do is a Warning naming the GRANT; once granted, the operator ends them, and nothing else: the
     * replacement's backends and an idle connection from an address no pod had (the host's) are untouched.
     */
    @Test
    void ghostsOfAPodKilledBehindACutNetworkAreReportedAndOnlyTheyAreEnded() throws Exception {
        int interval = 10;
        // the role's sessions only: the server's own keepalive settings stay as they are for every other test
        GhostHost.psql("DROP ROLE IF EXISTS ghost_app", "CREATE ROLE ghost_app LOGIN PASSWORD 'ghost'",
                "ALTER ROLE ghost_app SET tcp_keepalives_idle = 0", "ALTER ROLE ghost_app SET "
                        + "tcp_keepalives_interval = 0",
                "ALTER ROLE ghost_app SET tcp_keepalives_count = 0",
                "REVOKE pg_signal_backend FROM poolbudget_monitor");
        secret("monitor");
        var app = RealApps.app(ns, "ghostly", 1, Map.of(), 0);
        var env = app.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv();
        env.add(new io.fabric8.kubernetes.api.model.EnvVar("DB_USER", "ghost_app", null));
        env.add(new io.fabric8.kubernetes.api.model.EnvVar("DB_PASSWORD", "ghost", null));
        create(app);
        applyPolicy(policy("ghost-db", "spring-boot-hikari", "ghostly").replace("intervalSeconds: 10}",
                "intervalSeconds: " + interval + ", reapGhostsAfterSeconds: 30}"));
        PoolPolicy sized = awaitPolicy("ghost-db", p -> "Applied".equals(target(p, "ghostly").getState())
                && target(p, "ghostly").getAppliedPoolSize() != null && target(p, "ghostly")
                        .getObservedConnections() != null
                && target(p, "ghostly").getObservedConnections()
                        .equals((long) target(p, "ghostly").getAppliedPoolSize()),
                180);
        int size = target(sized, "ghostly").getAppliedPoolSize();
        var victim = client.pods().inNamespace(ns).withLabel("app", "ghostly").list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).findFirst().orElseThrow();
        String ip = victim.getStatus().getPodIP();
        Awaitility.await("the victim's pool open").atMost(60, TimeUnit.SECONDS)
                .until(() -> GhostHost.backends(JDBC, ip).size() == size);
        List<Integer> victimPids = GhostHost.backends(JDBC, ip);
        try (var host = new GhostHost();
                // an idle connection from an address no pod has (the host's): never a ghost, never ended
                var bystander = java.sql.DriverManager.getConnection(JDBC, "app", "app")) {
            int bystanderPid = pid(bystander);
            host.cut(ip);
            long killed = System.nanoTime();
            client.pods().inNamespace(ns).withName(victim.getMetadata().getName()).withGracePeriod(0).delete();
            PoolPolicy reported = awaitPolicy("ghost-db", p -> p.getStatus().getObserved() != null
                    && p.getStatus().getObserved().getGhosts() != null, 2 * interval + 10);
            double seconds = (System.nanoTime() - killed) / 1e9;
            var ghost = reported.getStatus().getObserved().getGhosts().get(0);
            System.out.printf("E2E ghosts: %d connections from %s of %s reported %.1f s after the kill (observe "
                    + "interval %d s)%n", ghost.getConnections(), ghost.getAddress(), ghost.getLastPod(), seconds,
                    interval);
            assertThat(seconds).as("within 2 observe periods and a read").isLessThanOrEqualTo(2 * interval + 5);
            assertThat(ghost.getAddress()).isEqualTo(ip);
            assertThat(ghost.getConnections()).isEqualTo(size);
            assertThat(ghost.getLastPod()).isEqualTo(ns + "/" + victim.getMetadata().getName()
                    + " (Deployment/ghostly)");
            awaitEvents(events -> assertThat(events).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo("GhostConnections");
                assertThat(e.getType()).isEqualTo("Warning");
                assertThat(e.getMessage()).contains(ip, "tcp_keepalives_idle", "idle_session_timeout");
            }));
            // the monitoring role may not end another role's backend yet: a Warning naming the GRANT, nothing ended
            Awaitility.await("the refused reap said").atMost(60, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS)
                    .until(() -> client.v1().events().inNamespace(ns).list().getItems().stream()
                            .anyMatch(e -> "GhostReapRefused".equals(e.getReason()) && e.getMessage().contains(
                                    "GRANT pg_signal_backend TO poolbudget_monitor")));
            assertThat(GhostHost.backends(JDBC, ip)).as("nothing ended without the grant").isEqualTo(victimPids);
            List<Integer> replacement = GhostHost.backends(JDBC, replacementIp());
            assertThat(replacement).as("the replacement's pool open").hasSize(size);
            GhostHost.psql("GRANT pg_signal_backend TO poolbudget_monitor");
            Awaitility.await("the ghosts ended").atMost(3L * interval + 10, TimeUnit.SECONDS)
                    .until(() -> GhostHost.backends(JDBC, ip).isEmpty());
            // nothing else: the host's idle connection (an address never attributed) and the replacement's pool
            assertThat(pid(bystander)).as("the host's idle connection was not ended").isEqualTo(bystanderPid);
            assertThat(GhostHost.backends(JDBC, replacementIp())).as("the replacement's backends").isEqualTo(
                    replacement);
            awaitEvents(events -> assertThat(events).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo("GhostConnectionsEnded");
                assertThat(e.getMessage()).contains("ended " + size + " connections from " + ip,
                        victim.getMetadata().getName());
            }));
            PoolPolicy after = awaitPolicy("ghost-db", p -> p.getStatus().getObserved() != null
                    && p.getStatus().getObserved().getGhosts() == null, 3 * interval);
            long held = Long.parseLong(GhostHost.psql("SELECT count(*) FROM pg_stat_activity WHERE usename = "
                    + "'ghost_app'"));
            System.out.printf("E2E ghosts: after the reap PostgreSQL holds %d connections of the app, budget %d%n",
                    held, after.getStatus().getBudget().getConnections());
            assertThat(held).as("the replacement's pool, within the budget").isEqualTo(size)
                    .isLessThanOrEqualTo(after.getStatus().getBudget().getConnections());
        } finally {
            client.apps().deployments().inNamespace(ns).withName("ghostly").delete();
            Awaitility.await("the app's pods gone").atMost(90, TimeUnit.SECONDS).until(() -> client.pods()
                    .inNamespace(ns).withLabel("app", "ghostly").list().getItems().isEmpty());
            // a failed run's ghosts, ended as the superuser, so that the role can go
            GhostHost.psql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = "
                    + "'ghost_app'");
            Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> GhostHost.psql("SELECT count(*) FROM "
                    + "pg_stat_activity WHERE usename = 'ghost_app'").equals("0"));
            GhostHost.psql("REVOKE pg_signal_backend FROM poolbudget_monitor", "DROP ROLE IF EXISTS ghost_app");
        }
    }

    /** The address of the app's pod that runs now (the replacement). */
    private String replacementIp() {
        return client.pods().inNamespace(ns).withLabel("app", "ghostly").list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus().getPodIP() != null)
                .map(p -> p.getStatus().getPodIP()).findFirst().orElseThrow();
    }

    private static int pid(java.sql.Connection c) throws java.sql.SQLException {
        try (var r = c.createStatement().executeQuery("SELECT pg_backend_pid()")) {
            r.next();
            return r.getInt(1);
        }
    }

    private void secret(String password) {
        client.resource(new SecretBuilder().withNewMetadata().withName("pg-monitor").endMetadata()
                .withStringData(Map.of("jdbcUrl", JDBC, "username", "poolbudget_monitor", "password", password))
                .build())
                .inNamespace(ns).serverSideApply();
    }

    private static boolean condition(PoolPolicy p, String type, String status) {
        return p.getStatus().getConditions().stream()
                .anyMatch(c -> c.getType().equals(type) && c.getStatus().equals(status));
    }
}
