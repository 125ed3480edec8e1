package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Which workloads a policy writes: selector matches, conflicts between policies, dry runs. */
class PolicyScopeIT extends OperatorTestBase {

    @BeforeAll
    static void start() {
        startOperator("scope", "0s");
    }

    @Test
    void aSelectorPicksUpANewDeployment() {
        create(deployment("x", 2, Map.of("db", "orders")));
        create(deployment("other", 2, Map.of("db", "billing")));
        // x: 2 + 1 + 1 = 4 peak pods; budget 8 × 2 = 16 -> size 4
        applyPolicy(policy("orders", "{selector: {matchLabels: {db: orders}}}"));
        awaitPolicy("orders", targetState("x", "Applied", 4));
        create(deployment("y", 2, Map.of("db", "orders")));
        // two targets of 4 peak pods share 16 -> 2 each; x shrinks, y gets its first size
        var both = awaitPolicy("orders", targetState("x", "Applied", 2).and(targetState("y", "Applied", 2)));
        assertThat(both.getStatus().getTargetCount()).isEqualTo(2);
        assertThat(templateEnv("other", MAX)).as("a non-matching Deployment is left alone").isNull();
    }

    @Test
    void aTargetRelabelledAwayOrDeletedLeavesItsPolicyAndTheRestGrow() {
        // Events of a workload wake only the policies that read or sized it (WorkloadInterest.concerns): one that
        // no longer matches the selector must still wake the policy that counted it, and so must its deletion.
        for (String name : new String[]{"a", "b", "c"}) {
            create(deployment(name, 2, Map.of("db", "stock")));
        }
        create(deployment("bystander", 2, Map.of("db", "other")));
        applyPolicy(policy("stock", "{selector: {matchLabels: {db: stock}}}"));
        awaitPolicy("stock", p -> p.getStatus() != null && Integer.valueOf(3).equals(p.getStatus().getTargetCount())
                && p.getStatus().getTargets().stream().allMatch(t -> "Applied".equals(t.getState())));
        client.apps().deployments().inNamespace(ns).withName("b")
                .edit(d -> new DeploymentBuilder(d).editMetadata().addToLabels("db", "other").endMetadata().build());
        awaitPolicy("stock", p -> Integer.valueOf(2).equals(p.getStatus().getTargetCount()) && target(p, "b") == null);
        client.apps().deployments().inNamespace(ns).withName("c").delete();
        // a alone: 2 + 1 + 1 = 4 peak pods share 16 -> 4
        var alone = awaitPolicy("stock", targetState("a", "Applied", 4));
        assertThat(alone.getStatus().getTargetCount()).isEqualTo(1);
        assertThat(templateEnv("a", MAX)).isEqualTo("4");
        assertThat(templateEnv("bystander", MAX)).as("a Deployment the policy never selected is left alone").isNull();
    }

    /** A policy of 8 cores (a budget of 16) with these targets (a YAML flow sequence's items). */
    private static String policy(String name, String targets) {
        return """
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: %s}
                spec:
                  database: {cores: 8}
                  injection: {preset: hikari-env}
                  targets: [%s]
                """.formatted(name, targets);
    }

    @Test
    void aWorkloadClaimedByTwoPoliciesIsWrittenByNeither() {
        applyPolicy(policy("first", "{name: web}"));
        applyPolicy(policy("second", "{selector: {matchLabels: {tier: web}}}"));
        create(deployment("web", 2, Map.of("tier", "web")));
        for (String[] pair : new String[][]{{"first", "second"}, {"second", "first"}}) {
            var p = awaitPolicy(pair[0],
                    q -> target(q, "web") != null && "Conflict".equals(target(q, "web").getState()));
            assertThat(target(p, "web").getMessage()).contains("also claimed by PoolPolicy " + pair[1]
                    + ", which writes the same variables (HIKARI_MAXIMUM_POOL_SIZE in container 'app'");
            assertThat(p.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Conflict"))
                    .extracting(Condition::getStatus).containsExactly("True");
        }
        assertThat(templateEnv("web", MAX)).isNull();
        awaitEvents(events -> assertThat(events).extracting(Event::getReason).contains("Conflict"));

        client.resources(PoolPolicy.class).inNamespace(ns).withName("second").delete();
        awaitPolicy("first", targetState("web", "Applied", 4));
        assertThat(templateEnv("web", MAX)).isEqualTo("4");
    }

    @Test
    void aPrimaryAndAReplicaPolicySizeOneWorkloadSideBySide() {
        create(deployment("web", 2, Map.of()));
        // web: 2 + 1 + 1 = 4 peak pods. primary: budget 8 × 2 = 16 -> 4; replica: 2 instances × (2 × 2) = 8 -> 2
        applyPolicy(WEB_POLICY.formatted(8).replace("name: db", "name: primary"));
        applyPolicy("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: replica}
                spec:
                  deletionPolicy: Remove
                  database: {cores: 2, instances: 2}
                  injection: {maxPoolSizeEnv: REPLICA_POOL_SIZE, minIdleEnv: REPLICA_MIN_IDLE}
                  targets: [{name: web}]
                """);
        awaitPolicy("primary", targetState("web", "Applied", 4));
        awaitPolicy("replica", targetState("web", "Applied", 2));
        assertThat(templateEnv("web", MAX)).isEqualTo("4");
        assertThat(templateEnv("web", "REPLICA_POOL_SIZE")).isEqualTo("2");
        assertThat(templateEnv("web", "REPLICA_MIN_IDLE")).isEqualTo("2");
        assertThat(deployment("web").getMetadata().getManagedFields()).extracting(f -> f.getManager())
                .contains("poolbudget/primary", "poolbudget/replica").doesNotContain("poolbudget-operator");

        // The replica's policy goes (deletionPolicy Remove): its variables go with it, the primary's stay.
        client.resources(PoolPolicy.class).inNamespace(ns).withName("replica").delete();
        client.resources(PoolPolicy.class).inNamespace(ns).withName("replica")
                .waitUntilCondition(p -> p == null, 60, TimeUnit.SECONDS);
        assertThat(templateEnv("web", "REPLICA_POOL_SIZE")).isNull();
        assertThat(templateEnv("web", MAX)).isEqualTo("4");
        assertThat(deployment("web").getSpec().getTemplate().getMetadata().getLabels())
                .as("the marker both applied stays with the primary").containsEntry("poolbudget.io/sized", "true");
        awaitPolicy("primary", targetState("web", "Applied", 4));
    }

    @Test
    void aDryRunComputesAndReportsButTouchesNothing() throws InterruptedException {
        create(deployment("web", 2, Map.of()));
        awaitRolledOut("web");
        String version = deployment("web").getMetadata().getResourceVersion();
        applyPolicy("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: preview}
                spec:
                  dryRun: true
                  database: {cores: 8}
                  injection: {preset: hikari-env}
                  targets: [{name: web}]
                """);
        var p = awaitPolicy("preview", q -> target(q, "web") != null && "DryRun".equals(target(q, "web").getState()));
        assertThat(target(p, "web").getPoolSize()).isEqualTo(4);
        assertThat(target(p, "web").getMessage()).contains("would apply");
        assertThat(p.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Ready"))
                .extracting(Condition::getReason).containsExactly("DryRun");
        TimeUnit.SECONDS.sleep(2);
        assertThat(deployment("web").getMetadata().getResourceVersion()).isEqualTo(version);
        assertThat(client.configMaps().inNamespace(ns).withLabel("poolbudget.io/policy").list().getItems()).isEmpty();
    }

    @Test
    void whatTheSchemaCannotCatchIsReportedAsAConditionAndAnEvent() throws InterruptedException {
        create(deployment("web", 2, Map.of()));
        awaitRolledOut("web");
        String version = deployment("web").getMetadata().getResourceVersion();
        applyPolicy("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db}
                spec:
                  database: {cores: 8}
                  injection: {preset: hikari-env, containers: [sidecar]}
                  targets: [{name: web}]
                """);
        var p = awaitPolicy("db", q -> target(q, "web") != null && "Invalid".equals(target(q, "web").getState()));
        assertThat(target(p, "web").getMessage())
                .isEqualTo(
                        "spec.injection.containers names 'sidecar', which this workload does not have (it has [app])");
        assertThat(p.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Ready")).singleElement()
                .satisfies(c -> {
                    assertThat(c.getStatus()).isEqualTo("False");
                    assertThat(c.getReason()).isEqualTo("TargetProblem");
                    // the first cause itself, not "see status.targets"
                    assertThat(c.getMessage()).isEqualTo("Deployment/web (Invalid: spec.injection.containers names "
                            + "'sidecar', which this workload does not have (it has [app]))");
                });
        awaitEvents(events -> assertThat(events).anySatisfy(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("TargetProblem");
            assertThat(e.getMessage()).contains("'sidecar', which this workload does not have");
            assertThat(e.getInvolvedObject().getName()).isEqualTo("db");
        }));
        TimeUnit.SECONDS.sleep(1);
        assertThat(deployment("web").getMetadata().getResourceVersion()).isEqualTo(version);
    }
}
