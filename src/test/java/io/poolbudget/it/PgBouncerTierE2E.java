package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 45, the pooler tier: a real PgBouncer (Debian's, image poolbudget/pgbouncer:dev) in front of the test
 * PostgreSQL, and the example app connecting only through it (transaction pooling). Policy "database" sizes PgBouncer's
 * server side against the database (preset pgbouncer: DEFAULT_POOL_SIZE and MAX_DB_CONNECTIONS); policy "clients"
 * sizes the app's pools against the client connections PgBouncer accepts (spec.database.pooler: MAX_CLIENT_CONN × its
 * pods). PostgreSQL's own count, every 100 ms, never passes the database budget through a scale of the pooler (which
 * also raises the clients' budget) and rollouts of both tiers.
 */
@Order(11)
class PgBouncerTierE2E extends OperatorTestBase {
    private static final int BUDGET = 6;
    private static final int MAX_CLIENT_CONN = 30;
    private static final String SERVER_POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: database}
            spec:
              database: {cores: 1, budget: %d}
              injection: {preset: pgbouncer}
              targets: [{name: pgbouncer}]
            """.formatted(BUDGET);
    private static final String CLIENT_POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: clients}
            spec:
              database:
                pooler: {name: pgbouncer}
              injection: {preset: spring-boot-hikari}
              targets: [{name: app}]
            """;

    @BeforeAll
    static void start() {
        startOperatorAsShipped("pgbouncer-tier", "5s");
    }

    @Test
    void bothTiersHoldThroughAScaleOfThePoolerAndRolloutsOfBoth() {
        create(pgbouncer());
        Service service = create(new ServiceBuilder().withNewMetadata().withName("pgbouncer").endMetadata()
                .withNewSpec().addToSelector("app", "pgbouncer").addNewPort().withPort(6432)
                .withTargetPort(new IntOrString(6432)).endPort().endSpec().build());
        awaitRolledOut("pgbouncer", 120);
        String appName = RealApps.appName(ns, "app");
        Deployment app = RealApps.app(ns, "app", 2, Map.of(), 1);
        // through PgBouncer in transaction pooling: no server-side prepared statements (PgBouncer 1.18)
        app.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().add(new EnvVar("SPRING_DATASOURCE_URL",
                "jdbc:postgresql://" + service.getSpec().getClusterIP() + ":6432/app?ApplicationName=" + appName
                        + "&prepareThreshold=0",
                null));
        create(app);
        awaitRolledOut("app", 120);

        try (var apps = new RealApps(client, ns)) {
            apps.startLoad(8);
            int before;
            try (var sampler = ConnectionSampler.start(Set.of(appName))) {
                Awaitility.await("the app's transactions through PgBouncer at PostgreSQL").atMost(60, TimeUnit.SECONDS)
                        .pollInterval(200, TimeUnit.MILLISECONDS).until(() -> sampler.peak() > BUDGET);
                before = sampler.peak();
                System.out.printf("PgBouncerTierE2E: before the policies PostgreSQL counted up to %d server "
                        + "connections of PgBouncer (default_pool_size 20; the app's 2 pods x HikariCP's 10 "
                        + "clients); %s%n", before, apps.loadReport());
            }

            applyPolicy(SERVER_POLICY);
            applyPolicy(CLIENT_POLICY);
            var server = awaitSettled("database", List.of("pgbouncer"), 240);
            var clients = awaitSettled("clients", List.of("app"), 240);
            int serverSize = target(server, "pgbouncer").getAppliedPoolSize();
            System.out.printf("PgBouncerTierE2E: after: PgBouncer pool %d (budget %d: %s); app pool %d (budget %d: "
                    + "%s)%n", serverSize, server.getStatus().getBudget().getConnections(),
                    server.getStatus().getBudget().getExplanation(), target(clients, "app").getAppliedPoolSize(),
                    clients.getStatus().getBudget().getConnections(), clients.getStatus().getBudget()
                            .getExplanation());
            assertThat(clients.getStatus().getBudget().getTerm()).isEqualTo("Pooler");
            assertThat(clients.getStatus().getBudget().getConnections()).isEqualTo(MAX_CLIENT_CONN);
            assertThat(templateEnv("pgbouncer", "MAX_DB_CONNECTIONS")).isEqualTo(Integer.toString(serverSize));

            try (var sampler = ConnectionSampler.start(Set.of(appName))) {
                // the pooler scaled: its server side shrinks per pod, its clients may hold twice as many
                client.apps().deployments().inNamespace(ns).withName("pgbouncer").scale(2);
                awaitPolicy("clients", p -> p.getStatus().getBudget().getConnections() == 2L * MAX_CLIENT_CONN, 120);
                awaitSettled("database", List.of("pgbouncer"), 240);
                var scaled = awaitSettled("clients", List.of("app"), 240);
                client.apps().deployments().inNamespace(ns).withName("app").rolling().restart();
                awaitSettled("clients", List.of("app"), 240);
                client.apps().deployments().inNamespace(ns).withName("pgbouncer").rolling().restart();
                var last = awaitSettled("database", List.of("pgbouncer"), 240);
                Awaitility.await("traffic through the new PgBouncer pods").atMost(60, TimeUnit.SECONDS)
                        .until(() -> sampler.now() > 0);
                int appSize = target(scaled, "app").getAppliedPoolSize();
                for (var pod : apps.readyPods()) {
                    assertThat(apps.poolSize(pod)).as("HikariCP's own maximum in %s", pod.getMetadata().getName())
                            .isEqualTo(appSize);
                }
                System.out.printf("PgBouncerTierE2E: PgBouncer scaled 1 -> 2 and rolled, the app rolled: PgBouncer "
                        + "pool %d per pod, app pool %d (budget %d); %s%n",
                        target(last, "pgbouncer").getAppliedPoolSize(), appSize,
                        scaled.getStatus().getBudget().getConnections(), apps.loadReport());
                assertThat(scaled.getStatus().getAllocated()).isLessThanOrEqualTo(2L * MAX_CLIENT_CONN);
                sampler.assertWithin("PgBouncer tier: scale 1 -> 2, rollouts", BUDGET);
            }
        }
    }

    /** PgBouncer as the image's entry point configures it from variables; it reaches the test PostgreSQL. */
    private static Deployment pgbouncer() {
        return new DeploymentBuilder().withNewMetadata().withName("pgbouncer").endMetadata().withNewSpec()
                .withReplicas(1).withNewSelector().addToMatchLabels("app", "pgbouncer").endSelector()
                .withNewStrategy().withNewRollingUpdate().withMaxSurge(new IntOrString(1))
                .withMaxUnavailable(new IntOrString(0)).endRollingUpdate().endStrategy()
                .withNewTemplate().withNewMetadata().addToLabels("app", "pgbouncer").endMetadata().withNewSpec()
                .addToNodeSelector("poolbudget.io/real-node", "true")
                .addNewToleration().withKey("poolbudget.io/real-node").withOperator("Exists").withEffect("NoSchedule")
                .endToleration().withTerminationGracePeriodSeconds(10L)
                .addNewContainer().withName("pgbouncer").withImage("poolbudget/pgbouncer:dev")
                .withImagePullPolicy("Never")
                .withEnv(List.of(new EnvVar("DB_HOST", "10.88.0.1", null), new EnvVar("DB_PORT", "5434", null),
                        new EnvVar("DB_NAME", "app", null), new EnvVar("DB_USER", "app", null),
                        new EnvVar("DB_PASSWORD", "app", null), new EnvVar("POOL_MODE", "transaction", null),
                        new EnvVar("MAX_CLIENT_CONN", Integer.toString(MAX_CLIENT_CONN), null)))
                .addNewPort().withContainerPort(6432).endPort()
                .withNewReadinessProbe().withNewTcpSocket().withPort(new IntOrString(6432)).endTcpSocket()
                .withPeriodSeconds(1).endReadinessProbe()
                .withNewResources().addToRequests("cpu", new Quantity("20m"))
                .addToLimits("memory", new Quantity("64Mi")).endResources()
                .endContainer().endSpec().endTemplate().endSpec().build();
    }
}
