package io.poolbudget.it;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A DatabaseBudget of one test, shared by two namespaces it admits by a label of its own name, and the
 * PoolPolicy that draws on it. Register it with {@code @RegisterExtension}: being cluster-scoped, the budget
 * is deleted after each test.
 */
final class SharedBudgetFixture implements AfterEachCallback {
    final String name = "it-shared-" + UUID.randomUUID().toString().substring(0, 8);

    private final KubernetesClient client;

    /** For the test class's cluster ({@link TestCluster#of}). */
    SharedBudgetFixture(Class<?> testClass) {
        this.client = TestCluster.of(testClass).client();
    }

    private KubernetesClient client() {
        return client;
    }

    /** Applies (or changes) the budget: {@code database} as YAML flow, two namespaces' weights. */
    void apply(String database, String nsA, int weightA, String nsB, int weightB) {
        String yaml = """
                apiVersion: poolbudget.io/v1alpha1
                kind: DatabaseBudget
                metadata: {name: %s}
                spec:
                  database: %s
                  namespaceSelector: {matchLabels: {poolbudget.io/it-shared: %s}}
                  namespaces: [{name: %s, weight: %d}, {name: %s, weight: %d}]
                """.formatted(name, database, name, nsA, weightA, nsB, weightB);
        client().resource(client().resources(DatabaseBudget.class)
                .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).item()).serverSideApply();
    }

    /** Labels the namespace so that the budget's selector admits it. */
    void admit(String namespace) {
        client().namespaces().withName(namespace).edit(n -> {
            n.getMetadata().getLabels().put("poolbudget.io/it-shared", name);
            return n;
        });
    }

    /** PoolPolicy db drawing on the budget for one Deployment, with this preset. */
    String policy(String preset, String target) {
        return """
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db}
                spec:
                  databaseRef: {name: %s}
                  injection: {preset: %s}
                  targets: [{name: %s}]
                """.formatted(name, preset, target);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        client().resources(DatabaseBudget.class).withName(name).delete();
    }
}
