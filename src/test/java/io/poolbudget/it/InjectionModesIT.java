package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Env and ConfigMap modes each roll the workload for real; a pass with nothing to change writes nothing. */
class InjectionModesIT extends OperatorTestBase {

    @BeforeAll
    static void start() {
        startOperator("injection", "0s");
    }

    private static String policy(String cores, String mode) {
        return """
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db}
                spec:
                  database: {cores: %s}
                  injection: {preset: hikari-env, mode: %s}
                  targets: [{name: web}]
                """.formatted(cores, mode);
    }

    @Test
    void envModeRollsThePodsAndTouchesNothingElse() {
        create(deployment("web", 3, Map.of()));
        awaitRolledOut("web");
        // peak pods 3 + 1 surge + 1 terminating = 5; budget 10 × 2 = 20 -> pool size 4
        applyPolicy(policy("10", "Env"));
        awaitPolicy("db", targetState("web", "Applied", 4));
        awaitRolledOut("web");

        var web = deployment("web");
        assertThat(web.getSpec().getReplicas()).isEqualTo(3);
        assertThat(web.getMetadata().getGeneration()).isEqualTo(2L); // one template change: one rollout
        assertThat(templateEnv("web", "DATABASE_URL")).isEqualTo("jdbc:postgresql://db/app");
        assertThat(livePods("web")).hasSize(3).allSatisfy(p -> {
            assertThat(env(p.getSpec().getContainers().get(0).getEnv(), MAX)).isEqualTo("4");
            assertThat(env(p.getSpec().getContainers().get(0).getEnv(), MIN)).isEqualTo("4");
        });
        assertThat(client.apps().replicaSets().inNamespace(ns).list().getItems()).hasSize(2);
        assertThat(web.getMetadata().getManagedFields()).anySatisfy(f -> {
            assertThat(f.getManager()).isEqualTo("poolbudget/db");
            assertThat(f.getOperation()).isEqualTo("Apply");
        });
    }

    @Test
    void aPassWithNothingToChangeWritesNothing() throws InterruptedException {
        create(deployment("web", 3, Map.of()));
        applyPolicy(policy("10", "Env"));
        var settled = awaitPolicy("db", targetState("web", "Applied", 4));
        awaitRolledOut("web");
        String webVersion = deployment("web").getMetadata().getResourceVersion();
        // the rollout's last pass (old pods done terminating) may still update the status: start from a still policy
        String policyVersion = stillVersion();
        // Another Deployment in the namespace changes: the policy is reconciled again, with nothing to do.
        create(deployment("unrelated", 1, Map.of()));
        awaitRolledOut("unrelated");
        client.apps().deployments().inNamespace(ns).withName("unrelated").scale(2);
        awaitRolledOut("unrelated");
        TimeUnit.SECONDS.sleep(3);
        assertThat(deployment("web").getMetadata().getResourceVersion()).isEqualTo(webVersion);
        assertThat(client.resources(PoolPolicy.class).inNamespace(ns).withName("db").get().getMetadata()
                .getResourceVersion()).as("status not rewritten").isEqualTo(policyVersion);
        assertThat(settled.getStatus().getTargets()).hasSize(1);
    }

    /** The policy's resourceVersion once it stayed the same for 3 s (at most 30 s of waiting). */
    private String stillVersion() throws InterruptedException {
        String before = null;
        for (int i = 0; i < 10; i++) {
            String now = client.resources(PoolPolicy.class).inNamespace(ns).withName("db").get().getMetadata()
                    .getResourceVersion();
            if (now.equals(before)) {
                return now;
            }
            before = now;
            TimeUnit.SECONDS.sleep(3);
        }
        throw new AssertionError("PoolPolicy db kept changing for 30 s after its rollout: " + operatorLog());
    }

    @Test
    void configMapModeRollsThePodsWhenTheValueChanges() {
        create(deployment("web", 3, Map.of()));
        applyPolicy(policy("10", "ConfigMap"));
        awaitPolicy("db", targetState("web", "Applied", 4));
        awaitRolledOut("web");
        var cm = client.configMaps().inNamespace(ns).withName("poolbudget-db-deployment-web").get();
        assertThat(cm.getData()).containsEntry("maxPoolSize", "4")
                .containsEntry("minIdle", "4");
        String firstHash = deployment("web").getSpec().getTemplate().getMetadata().getAnnotations()
                .get("config-hash.poolbudget.io/db");
        assertThat(firstHash).isNotBlank();
        assertThat(livePods("web")).hasSize(3).allSatisfy(p -> assertThat(p.getSpec().getContainers().get(0).getEnv())
                .anySatisfy(e -> {
                    assertThat(e.getName()).isEqualTo(MAX);
                    assertThat(e.getValueFrom().getConfigMapKeyRef().getName())
                            .isEqualTo("poolbudget-db-deployment-web");
                }));
        long generation = deployment("web").getMetadata().getGeneration();

        // A smaller database: budget 10 -> size 2. The ConfigMap changes and so does the hash: a new rollout.
        applyPolicy(policy("5", "ConfigMap"));
        awaitPolicy("db", targetState("web", "Applied", 2));
        awaitRolledOut("web");
        assertThat(client.configMaps().inNamespace(ns).withName("poolbudget-db-deployment-web").get().getData())
                .containsEntry("maxPoolSize", "2");
        assertThat(deployment("web").getSpec().getTemplate().getMetadata().getAnnotations()
                .get("config-hash.poolbudget.io/db")).isNotEqualTo(firstHash);
        assertThat(deployment("web").getMetadata().getGeneration()).isEqualTo(generation + 1);
        assertThat(client.apps().replicaSets().inNamespace(ns).list().getItems()).extracting(ReplicaSet::getMetadata)
                .hasSize(3);
    }

    @Test
    void aStatefulSetRollsItsPodsOneByOne() {
        var web = deployment("ledger", 2, Map.of());
        create(new StatefulSetBuilder().withNewMetadata().withName("ledger").endMetadata()
                .withNewSpec().withReplicas(2).withServiceName("ledger").withSelector(web.getSpec().getSelector())
                .withTemplate(web.getSpec().getTemplate()).endSpec().build());
        // a StatefulSet never overlaps old and new pods: 2 peak pods; budget 8 × 2 = 16 -> size 8
        applyPolicy("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db}
                spec:
                  database: {cores: 8}
                  injection: {preset: hikari-env}
                  targets: [{name: ledger, kind: StatefulSet}]
                """);
        var p = awaitPolicy("db", targetState("ledger", "Applied", 8));
        assertThat(target(p, "ledger").getPeakPods()).isEqualTo(2);
        var ledger = client.apps().statefulSets().inNamespace(ns).withName("ledger").get();
        assertThat(ledger.getStatus().getCurrentRevision()).isEqualTo(ledger.getStatus().getUpdateRevision());
        assertThat(client.pods().inNamespace(ns).withLabel("app", "ledger").list().getItems()).hasSize(2)
                .allSatisfy(pod -> assertThat(env(pod.getSpec().getContainers().get(0).getEnv(), MAX)).isEqualTo("8"));
    }
}
