package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Deleting a PoolPolicy: Retain leaves the last values; Remove takes back everything the operator set. */
class DeletionPolicyIT extends OperatorTestBase {

    @BeforeAll
    static void start() {
        startOperator("deletion", "0s");
    }

    private void applyAndDelete(String deletionPolicy, String mode) {
        applyAndDelete(deletionPolicy, mode, deployment("web", 2, Map.of()));
    }

    private void applyAndDelete(String deletionPolicy, String mode,
            io.fabric8.kubernetes.api.model.apps.Deployment web) {
        create(web);
        applyPolicy("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db}
                spec:
                  deletionPolicy: %s
                  database: {cores: 8}
                  injection: {preset: hikari-env, mode: %s}
                  targets: [{name: web}]
                """.formatted(deletionPolicy, mode));
        awaitPolicy("db", targetState("web", "Applied", 4));
        awaitRolledOut("web");
        client.resources(PoolPolicy.class).inNamespace(ns).withName("db").delete();
        client.resources(PoolPolicy.class).inNamespace(ns).withName("db").waitUntilCondition(p -> p == null, 60,
                TimeUnit.SECONDS);
    }

    @Test
    void retainLeavesTheLastValues() {
        applyAndDelete("Retain", "Env");
        assertThat(templateEnv("web", MAX)).isEqualTo("4");
        assertThat(templateEnv("web", MIN)).isEqualTo("4");
    }

    @Test
    void removeTakesBackEverythingTheOperatorSet() {
        applyAndDelete("Remove", "Env");
        awaitRolledOut("web");
        var template = deployment("web").getSpec().getTemplate();
        assertThat(templateEnv("web", MAX)).isNull();
        assertThat(templateEnv("web", MIN)).isNull();
        assertThat(templateEnv("web", "DATABASE_URL")).as("the user's own variable stays")
                .isEqualTo("jdbc:postgresql://db/app");
        assertThat(template.getMetadata().getLabels()).doesNotContainKey("poolbudget.io/sized").containsEntry("app",
                "web");
        assertThat(template.getMetadata().getAnnotations()).doesNotContainKey("pool-size.poolbudget.io/db");
        assertThat(deployment("web").getSpec().getReplicas()).isEqualTo(2);
    }

    @Test
    void removeDeletesTheConfigMapToo() {
        applyAndDelete("Remove", "ConfigMap");
        assertThat(client.configMaps().inNamespace(ns).withName("poolbudget-db-deployment-web").get()).isNull();
        assertThat(deployment("web").getSpec().getTemplate().getMetadata().getAnnotations())
                .doesNotContainKey("config-hash.poolbudget.io/db");
        assertThat(templateEnv("web", MAX)).isNull();
    }

    @Test
    void removeKeepsTheConfigMapThatTheUsersEnvFromReads() {
        var web = deployment("web", 2, Map.of());
        var c = web.getSpec().getTemplate().getSpec().getContainers().get(0);
        c.setEnvFrom(java.util.List.of(new io.fabric8.kubernetes.api.model.EnvFromSourceBuilder().withNewConfigMapRef()
                .withName("poolbudget-db-deployment-web").endConfigMapRef().build()));
        var env = new java.util.ArrayList<>(c.getEnv() == null ? java.util.List.of() : c.getEnv());
        env.add(new io.fabric8.kubernetes.api.model.EnvVar(MAX, "$(POOLBUDGET_MAX_POOL_SIZE)", null));
        c.setEnv(env);
        applyAndDelete("Remove", "EnvFrom", web);
        // without it, a new pod of this Deployment could not start: kept, at the last size, until the user lets it go
        var cm = client.configMaps().inNamespace(ns).withName("poolbudget-db-deployment-web").get();
        assertThat(cm).isNotNull();
        assertThat(cm.getData()).containsEntry("POOLBUDGET_MAX_POOL_SIZE", "4");
        assertThat(deployment("web").getSpec().getTemplate().getMetadata().getAnnotations())
                .doesNotContainKey("config-hash.poolbudget.io/db");
        assertThat(templateEnv("web", MAX)).as("the user's own reference stays")
                .isEqualTo("$(POOLBUDGET_MAX_POOL_SIZE)");
        awaitEvents(events -> assertThat(events).extracting(io.fabric8.kubernetes.api.model.Event::getMessage)
                .anySatisfy(m -> assertThat(m).contains("ConfigMap poolbudget-db-deployment-web is kept")));
    }
}
