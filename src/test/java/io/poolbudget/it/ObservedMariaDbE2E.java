package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 45, MariaDB: spec.database.observe against a real MariaDB (Debian's, hack/mariadb.sh), counting Spring's
 * petclinic (unmodified, its mysql profile and MySQL Connector/J) on the real node. The operator's count for the target
 * equals MariaDB's own (PROCESSLIST, read by the test every 100 ms), and through a scale and a rollout MariaDB never
 * counts more of the app's connections than the policy's budget. A monitoring account without PROCESS, which would
 * see only its own connection, is a condition naming the grant, and clears when the Secret names one that has it.
 */
@Order(10)
class ObservedMariaDbE2E extends OperatorTestBase {
    private static final int BUDGET = 12;
    private static final String POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: db}
            spec:
              database:
                cores: 1
                budget: %d
                observe: {secretName: mariadb-monitor, intervalSeconds: 10, database: app}
              injection: {preset: spring-boot-hikari}
              targets: [{name: petclinic}]
            """.formatted(BUDGET);

    @BeforeAll
    static void start() {
        startOperatorAsShipped("observe-mariadb", "5s");
    }

    @Test
    void theOperatorCountsAtMariaDbAndTheBudgetHoldsThroughAScaleAndARollout() {
        secret("app", "app"); // an account without PROCESS first
        create(petclinic());
        awaitRolledOut("petclinic", 240);
        client.apps().deployments().inNamespace(ns).withName("petclinic").scale(2);
        awaitRolledOut("petclinic", 240);
        Map<String, Integer> before;
        try (var sampler = ConnectionSampler.startMariaDb(Set.of("app"))) {
            Awaitility.await("petclinic's pools at MariaDB").atMost(60, TimeUnit.SECONDS)
                    .until(() -> sampler.now() >= 20); // HikariCP's default of 10, filled, in each of 2 pods
            before = sampler.lastByApp();
        }

        applyPolicy(POLICY);
        var refused = awaitPolicy("db", p -> condition(p, "ObservationFailing", "True"), 60);
        var failing = refused.getStatus().getConditions().stream()
                .filter(c -> c.getType().equals("ObservationFailing")).findFirst().orElseThrow();
        System.out.println("ObservedMariaDbE2E: " + failing.getReason() + ": " + failing.getMessage());
        assertThat(failing.getReason()).isEqualTo("PermissionDenied");
        assertThat(failing.getMessage()).contains("GRANT PROCESS ON *.* TO it");
        secret("poolbudget_monitor", "monitor");

        var settled = awaitSettled();
        int size = target(settled, "petclinic").getAppliedPoolSize();
        try (var sampler = ConnectionSampler.startMariaDb(Set.of("app"))) {
            Awaitility.await("the operator's count of petclinic equal to MariaDB's").atMost(90, TimeUnit.SECONDS)
                    .pollInterval(500, TimeUnit.MILLISECONDS).until(() -> {
                        var p = client.resources(PoolPolicy.class).inNamespace(ns).withName("db").get();
                        var t = target(p, "petclinic");
                        return sampler.now() == 2 * size && Long.valueOf(sampler.now()).equals(
                                t.getObservedConnections()) && condition(p, "ObservationFailing", "False");
                    });
            var seen = client.resources(PoolPolicy.class).inNamespace(ns).withName("db").get();
            System.out.printf("ObservedMariaDbE2E: before the policy MariaDB counted %s; after it, size %d x 2 pods, "
                    + "MariaDB %d, the operator %d (its observe scope %d, max_connections %d)%n", before, size,
                    sampler.now(), target(seen, "petclinic").getObservedConnections(),
                    seen.getStatus().getObserved().getConnections(), seen.getStatus().getObserved()
                            .getMaxConnections());
            assertThat(seen.getStatus().getObserved().getMaxConnections()).isEqualTo(100);
            assertThat(seen.getStatus().getObserved().getScope()).isEqualTo("database app"); // observe.database
            assertThat(seen.getStatus().getObserved().getClients()).anySatisfy(c -> {
                assertThat(c.getClient()).isEqualTo("Deployment/petclinic");
                assertThat(c.getConnections()).isEqualTo(2L * size);
            });
        }

        try (var sampler = ConnectionSampler.startMariaDb(Set.of("app"))) {
            client.apps().deployments().inNamespace(ns).withName("petclinic").scale(3); // a scale
            awaitSettled();
            client.apps().deployments().inNamespace(ns).withName("petclinic").rolling().restart(); // a rollout
            var after = awaitSettled();
            System.out.printf("ObservedMariaDbE2E: scaled to 3 and rolled: size %d, MariaDB %s%n",
                    target(after, "petclinic").getAppliedPoolSize(), sampler.lastByApp());
            sampler.assertWithin("petclinic on MariaDB: scale 2 -> 3, rollout", BUDGET);
        }
    }

    /** petclinic as its README runs it on MySQL: profile mysql, MYSQL_URL, MYSQL_USER, MYSQL_PASS. */
    private static Deployment petclinic() {
        return new DeploymentBuilder().withNewMetadata().withName("petclinic").endMetadata().withNewSpec()
                .withReplicas(1).withNewSelector().addToMatchLabels("app", "petclinic").endSelector()
                .withNewStrategy().withNewRollingUpdate().withMaxSurge(new IntOrString(1))
                .withMaxUnavailable(new IntOrString(0)).endRollingUpdate().endStrategy()
                .withNewTemplate().withNewMetadata().addToLabels("app", "petclinic").endMetadata().withNewSpec()
                .addToNodeSelector("poolbudget.io/real-node", "true")
                .addNewToleration().withKey("poolbudget.io/real-node").withOperator("Exists").withEffect("NoSchedule")
                .endToleration().withTerminationGracePeriodSeconds(10L)
                .addNewContainer().withName("app").withImage("poolbudget/petclinic:dev").withImagePullPolicy("Never")
                .withEnv(List.of(new EnvVar("SPRING_PROFILES_ACTIVE", "mysql", null),
                        new EnvVar("MYSQL_URL", "jdbc:mysql://10.88.0.1:3307/app", null),
                        new EnvVar("MYSQL_USER", "app", null), new EnvVar("MYSQL_PASS", "app", null)))
                .addNewPort().withContainerPort(8080).endPort()
                .withNewReadinessProbe().withNewHttpGet().withPath("/actuator/health")
                .withPort(new IntOrString(8080)).endHttpGet().withPeriodSeconds(1).endReadinessProbe()
                .withNewResources().addToRequests("cpu", new Quantity("50m"))
                .addToLimits("memory", new Quantity("512Mi")).endResources()
                .endContainer().endSpec().endTemplate().endSpec().build();
    }

    private PoolPolicy awaitSettled() {
        awaitPolicy("db", p -> "Applied".equals(target(p, "petclinic").getState()), 300);
        awaitRolledOut("petclinic", 300);
        Awaitility.await("old pods gone").atMost(120, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .until(() -> client.pods().inNamespace(ns).list().getItems().stream()
                        .noneMatch(pod -> pod.getMetadata().getDeletionTimestamp() != null));
        return awaitPolicy("db", p -> "Applied".equals(target(p, "petclinic").getState()), 120);
    }

    private void secret(String user, String password) {
        client.resource(new SecretBuilder().withNewMetadata().withName("mariadb-monitor").endMetadata()
                .withStringData(Map.of("jdbcUrl", ConnectionSampler.MARIADB, "username", user, "password", password))
                .build()).inNamespace(ns).serverSideApply();
    }

    private static boolean condition(PoolPolicy p, String type, String status) {
        return p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions()
                .stream().anyMatch(c -> c.getType().equals(type) && c.getStatus().equals(status));
    }
}
