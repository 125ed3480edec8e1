package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.poolbudget.install.ChartTools;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The operator as users install it: its image in a real pod on the real node, under its own
 * ServiceAccount and the chart's RBAC, in a namespace enforcing the restricted Pod Security
 * Standard. Installed by helm in the namespaced mode, failed over, upgraded, uninstalled, installed
 * again (cluster-wide) by kubectl apply -k; then the permissions it called (the API server's audit
 * log) against the chart's.
 */
@Order(1)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InstallE2E extends OperatorTestBase {
    private static final String API = "SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE";
    private static final String POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: api-db}
            spec:
              database: {cores: %d}
              injection: {preset: spring-boot-hikari}
              targets: [{name: api}]
            """;
    /** KWOK workloads through a ConfigMap, taken back on deletion: the rest of what the operator may call. */
    private static final String FAKE_POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: fake-db}
            spec:
              deletionPolicy: Remove
              database: {cores: 8}
              injection: {preset: hikari-env, mode: ConfigMap}
              targets: [{name: web}, {name: ledger, kind: StatefulSet}]
            """;
    /** A shared budget, drawn on from the cluster-wide install (apply -k), in other variables than fake-db's. */
    private static final String SHARED_BUDGET = """
            apiVersion: poolbudget.io/v1alpha1
            kind: DatabaseBudget
            metadata: {name: install-e2e}
            spec:
              database: {cores: 4}
              namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: %s}}
            """;
    private static final String SHARED_POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: replica-db}
            spec:
              databaseRef: {name: install-e2e}
              injection: {maxPoolSizeEnv: REPLICA_POOL_SIZE}
              targets: [{name: web}]
            """;
    /** Resize mode Live on a KWOK Deployment: the installed operator publishes each pod's size on the pod itself. */
    private static final String LIVE_POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: live-db}
            spec:
              database: {cores: 2}
              injection: {preset: hikari-env, resize: Live}
              targets: [{name: fast}]
            """;
    /** Names a Deployment no policy read before: the operator's cache holds only its skeleton until then. */
    private static final String LATE_POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: late-db}
            spec:
              database: {cores: 2}
              injection: {preset: hikari-env}
              targets: [{name: late}]
            """;
    private static Installation install;
    private static String shared;
    private static RealApps apps;
    /** From helm uninstall until the apply -k install is Ready: refusals then are the removal's, not the chart's. */
    private static Instant uninstalling;
    private static Instant reinstalled;

    @BeforeAll
    static void helmInstall() {
        var cluster = TestCluster.of(InstallE2E.class);
        install = new Installation(cluster.client(), cluster.kubeconfig());
        install.createNamespace();
        shared = ClusterFixture.createNamespace(cluster.client(), "e2e-install");
        // The namespaced mode (Roles in the watched namespace, no cluster role); kubectl apply -k
        // later installs the default, cluster-wide mode.
        helm("install");
    }

    /** helm install or upgrade with the local cluster's values, watching only the shared namespace. */
    private static void helm(String command, String... sets) {
        var args = new java.util.ArrayList<>(List.of(command, "poolbudget", ChartTools.CHART.toString(), "-n",
                Installation.NAMESPACE, "-f", Installation.LOCAL_VALUES, "--set", "watchNamespaces={" + shared + "}",
                "--wait", "--timeout", "180s"));
        for (String set : sets) {
            args.addAll(List.of("--set", set));
        }
        install.helm(args.toArray(String[]::new));
    }

    @BeforeEach
    void useTheSharedNamespace() {
        ns = shared;
    }

    @AfterAll
    static void removeEverything() {
        if (apps != null) {
            apps.close();
        }
        var client = TestCluster.of(InstallE2E.class).client();
        if (shared != null) { // while an operator still runs to take back what Remove policies set
            client.namespaces().withName(shared).delete();
            client.namespaces().withName(shared).waitUntilCondition(n -> n == null, 120, TimeUnit.SECONDS);
        }
        if (install != null) {
            install.removeAll();
        }
        client.resources(io.poolbudget.api.v1alpha1.DatabaseBudget.class).withName("install-e2e").delete();
    }

    @Override
    String operatorLog() {
        return install.log();
    }

    @Test
    @Order(1)
    void helmInstallRunsTheOperatorInARealPodThatSizesTheApps() {
        var pods = install.pods();
        assertThat(pods).singleElement().satisfies(p -> {
            assertThat(p.getSpec().getNodeName()).isEqualTo("poolbudget-node");
            assertThat(Installation.ready(p)).isTrue();
            assertThat(p.getSpec().getServiceAccountName()).isEqualTo("poolbudget");
        });
        assertThat(client.rbac().clusterRoles().withName("poolbudget").get()).as("namespaced mode: no cluster role")
                .isNull();
        assertThat(client.rbac().roles().inNamespace(ns).withName("poolbudget").get()).isNotNull();
        create(RealApps.app(ns, "api", 2, Map.of(), 2));
        var web = deployment("web", 2, Map.of());
        create(web);
        create(new StatefulSetBuilder().withNewMetadata().withName("ledger").endMetadata()
                .withNewSpec().withReplicas(1).withServiceName("ledger").withSelector(web.getSpec().getSelector())
                .withTemplate(web.getSpec().getTemplate()).endSpec().build());
        // 2 replicas + 1 surge + 1 terminating = 4 peak pods; budget 6 × 2 = 12 -> 3 per pod
        applyPolicy(POLICY.formatted(6));
        applyPolicy(FAKE_POLICY);
        awaitSized("api", 3);
        awaitPolicy("fake-db", p -> p.getStatus().getTargets().size() == 2
                && p.getStatus().getTargets().stream().allMatch(t -> "Applied".equals(t.getState())));
        // resize Live: the first write adds the agent from the operator's own image, then the size goes to the pods
        create(deployment("fast", 1, Map.of()));
        applyPolicy(LIVE_POLICY);
        Awaitility.await("the operator in its pod publishes the size on the pod (pods patch)")
                .atMost(120, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .until(() -> livePods("fast").stream().anyMatch(p -> p.getMetadata().getAnnotations() != null
                        && p.getMetadata().getAnnotations().containsKey("live-size.poolbudget.io/live-db")));
        assertThat(deployment("fast").getSpec().getTemplate().getSpec().getInitContainers())
                .singleElement().satisfies(c -> assertThat(c.getImage()).startsWith("poolbudget/operator:"));
    }

    /**
     * Issue 21, item 1, with the chart installed: its ValidatingAdmissionPolicy refuses a writing PoolPolicy from a
     * ServiceAccount that may manage PoolPolicies but not patch Deployments, naming the missing right, and admits it
     * once the account may patch Deployments itself.
     */
    @Test
    @Order(2)
    void aTenantMayOnlyMakeThePolicyWriteWhatItMayPatchItself() {
        Tenant.create(client, ns);
        var policy = """
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: tenant-db}
                spec:
                  database: {budget: 4}
                  injection: {preset: hikari-env}
                  targets: [{name: no-such-app}]
                """;
        try (var tenant = Tenant.client(client, ns)) {
            var load = (java.util.function.Supplier<io.poolbudget.api.v1alpha1.PoolPolicy>) () -> tenant.resources(
                    io.poolbudget.api.v1alpha1.PoolPolicy.class).load(
                            new java.io.ByteArrayInputStream(
                                    policy.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                    .item();
            var refused = org.assertj.core.api.Assertions.catchThrowableOfType(
                    io.fabric8.kubernetes.client.KubernetesClientException.class,
                    () -> tenant.resource(load.get()).inNamespace(ns).create());
            assertThat(refused).as("refused by the chart's admission policy").isNotNull();
            System.out.println("E2E admission: " + refused.getStatus().getMessage());
            assertThat(refused.getCode()).isEqualTo(403);
            assertThat(refused.getStatus().getMessage()).contains(Tenant.refusal(ns, "deployments"));

            Tenant.grantPatch(client, ns, "deployments");
            Awaitility.await("admitted once the tenant may patch Deployments").atMost(30, TimeUnit.SECONDS)
                    .ignoreExceptions().until(() -> tenant.resource(load.get()).inNamespace(ns).create() != null);
            // deleted only once the operator has taken it up: deleted at once, the operator's first (server-side
            // apply) write would try to create it again, which it may not, and the RBAC audit would count that
            Awaitility.await("the operator reports on the tenant's policy").atMost(60, TimeUnit.SECONDS).until(() -> {
                var p = client.resources(io.poolbudget.api.v1alpha1.PoolPolicy.class).inNamespace(ns)
                        .withName("tenant-db").get();
                return p != null && p.getStatus() != null && p.getStatus().getConditions() != null
                        && !p.getStatus().getConditions().isEmpty();
            });
        } finally {
            client.resources(io.poolbudget.api.v1alpha1.PoolPolicy.class).inNamespace(ns).withName("tenant-db")
                    .delete();
        }
    }

    @Test
    @Order(3)
    void theStandbyTakesOverWithin15sOfTheLeadersPodBeingKilled() {
        helm("upgrade", "replicaCount=2");
        Awaitility.await("two operator pods Ready, one holding the lease").atMost(120, TimeUnit.SECONDS)
                .until(() -> install.pods().stream().filter(Installation::ready).count() == 2
                        && install.leader() != null);
        String leader = install.leader();
        apps = new RealApps(client, ns);
        try (var sampler = ConnectionSampler.start(Set.of(RealApps.appName(ns, "api")))) {
            apps.startLoad();
            long killed = System.nanoTime();
            client.pods().inNamespace(Installation.NAMESPACE).withName(leader).withGracePeriod(0).delete();
            Awaitility.await("another pod taking the lease").atMost(30, TimeUnit.SECONDS)
                    .pollInterval(100, TimeUnit.MILLISECONDS)
                    .until(() -> install.leader() != null && !install.leader().equals(leader));
            double takeover = (System.nanoTime() - killed) / 1e9;
            System.out.printf("E2E failover: %s took the lease %.1f s after the leader %s was killed%n",
                    install.leader(), takeover, leader);
            assertThat(takeover).as("seconds from the kill to the standby's lease").isLessThanOrEqualTo(15);
            // The new leader reconciles what changes next: 3 replicas -> 5 peak pods -> 12 / 5 = 2 per pod.
            client.apps().deployments().inNamespace(ns).withName("api").scale(3);
            awaitSized("api", 2);
            sampler.assertWithin("operator failover, then a scale-up", 12);
        }
    }

    @Test
    @Order(4)
    void anUpgradeRollsTheOperatorWithoutTouchingTheApps() {
        long generation = deployment("api").getMetadata().getGeneration();
        var before = new TreeSet<>(install.pods().stream().map(p -> p.getMetadata().getName()).toList());
        helm("upgrade", "replicaCount=2", "podAnnotations.upgrade=second");
        Awaitility.await("new operator pods, one of them leading").atMost(120, TimeUnit.SECONDS).until(() -> {
            var now = install.pods().stream().map(p -> p.getMetadata().getName()).toList();
            return now.size() == 2 && now.stream().noneMatch(before::contains) && now.contains(install.leader());
        });
        Awaitility.await("the apps left as they were").during(Duration.ofSeconds(10)).atMost(15, TimeUnit.SECONDS)
                .until(() -> deployment("api").getMetadata().getGeneration() == generation);
        assertThat(templateEnv("api", API)).isEqualTo("2");
    }

    @Test
    @Order(5)
    void uninstallLeavesTheAppsAndApplyKInstallsItAgain() {
        uninstalling = Instant.now();
        install.helm("uninstall", "poolbudget", "-n", Installation.NAMESPACE, "--wait", "--timeout", "120s");
        Awaitility.await("operator pods gone").atMost(60, TimeUnit.SECONDS).until(() -> install.pods().isEmpty());
        assertThat(templateEnv("api", API)).as("sizes stay as written").isEqualTo("2");
        assertThat(client.apiextensions().v1().customResourceDefinitions().withName("poolpolicies.poolbudget.io").get())
                .as("Helm keeps the CRD").isNotNull();

        install.kubectl("apply", "-k", Installation.LOCAL_OVERLAY);
        Awaitility.await("the operator of operator/ Ready").atMost(120, TimeUnit.SECONDS)
                .until(() -> install.pods().stream().anyMatch(Installation::ready));
        reinstalled = Instant.now();
        applyPolicy(POLICY.formatted(4)); // budget 8, 5 peak pods -> 1 per pod (a shrink: no window)
        awaitSized("api", 1);
        // The cluster-wide install reads DatabaseBudgets: a second policy sizes web's other variable from one,
        // and the budget's status shows its share. 4 × 2 = 8 for web's 4 peak pods -> 2 (below the default: at once).
        client.resource(client.resources(io.poolbudget.api.v1alpha1.DatabaseBudget.class).load(
                new java.io.ByteArrayInputStream(
                        SHARED_BUDGET.formatted(ns).getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .item()).serverSideApply();
        applyPolicy(SHARED_POLICY);
        awaitPolicy("replica-db", targetState("web", "Applied", 2));
        assertThat(templateEnv("web", "REPLICA_POOL_SIZE")).isEqualTo("2");
        client.resources(io.poolbudget.api.v1alpha1.DatabaseBudget.class).withName("install-e2e")
                .waitUntilCondition(b -> b.getStatus() != null && b.getStatus().getPolicies().size() == 1
                        && Long.valueOf(8).equals(b.getStatus().getPolicies().get(0).getAllocated()), 60,
                        TimeUnit.SECONDS);
        // A workload no policy read when it appeared is cached as a skeleton (WorkloadInterest); the policy that
        // starts to read it has it read whole, with the verbs the operator holds (the audit below counts the rest).
        create(deployment("late", 1, Map.of()));
        applyPolicy(LATE_POLICY);
        awaitPolicy("late-db", p -> p.getStatus() != null && p.getStatus().getTargets() != null
                && p.getStatus().getTargets().stream().anyMatch(t -> "late".equals(t.getName())
                        && "Applied".equals(t.getState())));
        assertThat(templateEnv("late", MAX)).as("late's size written").isNotNull();
        // Remove takes back the ConfigMap and the variables: the last of what the operator may call.
        Awaitility.await("fake-db's ConfigMap for web").atMost(60, TimeUnit.SECONDS).until(
                () -> client.configMaps().inNamespace(ns).withName("poolbudget-fake-db-deployment-web").get() != null);
        client.resources(io.poolbudget.api.v1alpha1.PoolPolicy.class).inNamespace(ns).withName("fake-db").delete();
        client.resources(io.poolbudget.api.v1alpha1.PoolPolicy.class).inNamespace(ns).withName("fake-db")
                .waitUntilCondition(p -> p == null, 90, TimeUnit.SECONDS);
        assertThat(client.configMaps().inNamespace(ns).withName("poolbudget-fake-db-deployment-web").get()).isNull();
    }

    @Test
    @Order(6)
    void theChartGrantsExactlyWhatTheOperatorCalled() {
        var audit = RbacAudit.read(uninstalling, reinstalled);
        System.out.println("E2E RBAC: the operator called " + audit.used());
        assertThat(audit.problems(RbacAudit.granted(ChartTools.render(Installation.NAMESPACE))))
                .as("the chart's RBAC against the operator's calls in the audit log").isEmpty();
    }

    /** Applied at this size, rolled out, and every pod's HikariCP running it. */
    private void awaitSized(String name, int size) {
        awaitPolicy("api-db", targetState(name, "Applied", size));
        awaitRolledOut(name);
        var reader = apps != null ? apps : new RealApps(client, ns);
        Awaitility.await(name + "'s pods running pool size " + size).atMost(60, TimeUnit.SECONDS)
                .untilAsserted(() -> assertThat(livePods(name)).isNotEmpty()
                        .allSatisfy(p -> assertThat(reader.poolSize(p)).isEqualTo(size)));
        if (reader != apps) {
            reader.close();
        }
    }
}
