package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The whole chain: CRD from crds/, the packaged operator, a PoolPolicy from examples/, its status. */
@ClusterTest
class PoolPolicySmokeIT {
    private static final List<String> namespaces = new ArrayList<>();
    private static KubernetesClient client;
    private static OperatorProcess operator;

    @BeforeAll
    static void startOperator() {
        var cluster = TestCluster.of(PoolPolicySmokeIT.class);
        client = cluster.client();
        ClusterFixture.installCrds(client);
        operator = OperatorProcess.start(cluster, "smoke");
    }

    @AfterAll
    static void stopOperator() {
        if (operator != null) {
            operator.stop();
        }
        if (client != null) {
            ClusterFixture.deleteNamespaces(client, namespaces);
        }
    }

    @Test
    void examplePolicyIsReconciledToReady() throws IOException {
        String ns = ClusterFixture.createNamespace(client, "it-smoke");
        namespaces.add(ns);
        try (InputStream in = Files.newInputStream(Path.of("examples/workloads.yaml"))) {
            client.load(in).inNamespace(ns).createOrReplace();
        }
        PoolPolicy policy;
        try (InputStream in = Files.newInputStream(Path.of("examples/poolpolicy.yaml"))) {
            policy = client.resources(PoolPolicy.class).load(in).item();
        }
        var created = client.resource(policy).inNamespace(ns).create();
        assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);

        // The example's pods start at HikariCP's default of 10, above the budget (LiveOverBudget) until the
        // first sizes have rolled out; then the policy is Ready.
        var reconciled = client.resources(PoolPolicy.class).inNamespace(ns).withName("orders-db")
                .waitUntilCondition(
                        p -> p.getStatus() != null && Long.valueOf(1).equals(p.getStatus().getObservedGeneration())
                                && p.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType())
                                        && "True".equals(c.getStatus())),
                        60, TimeUnit.SECONDS);
        Condition ready = reconciled.getStatus().getConditions().stream()
                .filter(c -> "Ready".equals(c.getType())).findFirst().orElseThrow();
        assertThat(ready.getStatus()).isEqualTo("True");
        assertThat(ready.getObservedGeneration()).isEqualTo(1L);
        // The API server applied the schema defaults from the committed CRD.
        assertThat(reconciled.getSpec().getDatabase().getConnectionsPerCore()).isEqualTo(2);
    }

    @Test
    void specChangeIsObservedUnderItsNewGeneration() {
        String ns = ClusterFixture.createNamespace(client, "it-smoke");
        namespaces.add(ns);
        var policies = client.resources(PoolPolicy.class).inNamespace(ns);
        var policy = policies.load(getClass().getResourceAsStream("/policies/minimal.yaml")).item();
        policies.resource(policy).create();
        policies.withName("minimal").waitUntilCondition(p -> p.getStatus() != null
                && Long.valueOf(1).equals(p.getStatus().getObservedGeneration()), 60, TimeUnit.SECONDS);

        policies.withName("minimal").edit(p -> {
            p.getSpec().getDatabase().setCores(8);
            return p;
        });
        var updated = policies.withName("minimal").waitUntilCondition(p -> p.getStatus() != null
                && Long.valueOf(2).equals(p.getStatus().getObservedGeneration()), 60, TimeUnit.SECONDS);
        assertThat(updated.getStatus().getConditions()).extracting(Condition::getObservedGeneration).containsOnly(2L);
    }
}
