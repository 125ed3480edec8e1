package io.poolbudget.decide;

import io.poolbudget.write.WorkloadWriter;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.decide.TargetOutcome.State;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One pass, without a cluster: an in-memory view and a writer that records what it is asked to write. */
public class PolicyPassTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");

    /** Records writes (and under which field manager); answers with {@code conflict} (a 409's message) when set. */
    public static final class RecordingWriter implements WorkloadWriter {
        final List<HasMetadata> applied = new ArrayList<>();
        final List<String> log = new ArrayList<>();
        String conflict;

        @Override
        public String apply(String fieldManager, HasMetadata partial) {
            applied.add(partial);
            log.add("apply " + partial.getKind() + "/" + partial.getMetadata().getName() + " as " + fieldManager);
            return conflict;
        }

        @Override
        public void deleteConfigMap(String namespace, String name) {
            log.add("delete ConfigMap " + name);
        }
    }

    public static PoolPolicy policy(String name, String spec) {
        return Serialization.unmarshal("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: %s, namespace: ns, generation: 1}
                spec:
                %s""".formatted(name, spec.indent(2)), PoolPolicy.class);
    }

    /** A settled Deployment: 2 replicas, all updated and available, with {@code size} in its template if not null. */
    public static Deployment web(Integer size) {
        var d = new DeploymentBuilder().withNewMetadata().withName("web").withNamespace("ns").withGeneration(1L)
                .withLabels(Map.of("tier", "web")).endMetadata()
                .withNewSpec().withReplicas(2).withNewSelector().withMatchLabels(Map.of("app", "web")).endSelector()
                .withNewTemplate().withNewMetadata().endMetadata().withNewSpec().addNewContainer().withName("app")
                .endContainer().endSpec().endTemplate()
                .endSpec()
                .withNewStatus().withObservedGeneration(1L).withReplicas(2).withUpdatedReplicas(2)
                .withAvailableReplicas(2)
                .withReadyReplicas(2).endStatus().build();
        if (size != null) {
            d.getSpec().getTemplate().getSpec().getContainers().get(0).setEnv(List.of(
                    new io.fabric8.kubernetes.api.model.EnvVar("HIKARI_MAXIMUM_POOL_SIZE", size.toString(), null)));
        }
        return d;
    }

    /** A settled Deployment {@code name} whose template carries gitea's variable at {@code size}, or none (null). */
    public static Deployment gitea(String name, Integer size) {
        var d = web(null);
        d.getMetadata().setName(name);
        d.getSpec().getSelector().setMatchLabels(Map.of("app", name));
        if (size != null) { // as the operator wrote it: the variable, its size annotation and the marker
            d.getSpec().getTemplate().getSpec().getContainers().get(0).setEnv(
                    List.of(new io.fabric8.kubernetes.api.model.EnvVar("GITEA__database__MAX_OPEN_CONNS",
                            size.toString(), null)));
            d.getSpec().getTemplate().getMetadata()
                    .setAnnotations(Map.of("pool-size.poolbudget.io/db", size.toString()));
            d.getSpec().getTemplate().getMetadata().setLabels(Map.of("poolbudget.io/sized", "true"));
        }
        return d;
    }

    public static ClusterView view(Deployment... deployments) {
        return new ClusterView(List.of(deployments), List.of(), List.of(), List.of(), List.of());
    }

    // 2 replicas + 1 surge (25% of 2, up) + 1 terminating = 4 peak pods; 8 cores × 2 = 16 -> size 4
    public static final String SPEC = """
            database: {cores: 8}
            injection: {preset: hikari-env}
            targets: [{name: web}]
            """;

    private static PassResult run(PoolPolicy p, ClusterView view, RecordingWriter writer, PoolPolicy... others) {
        var neighbours = new ArrayList<>(List.of(others));
        neighbours.add(p);
        return Passes.run(p, view, neighbours, writer, NOW, Duration.ofMinutes(3));
    }

    @Test
    void aFirstSizeIsWrittenAsAPartialObjectOnly() {
        var writer = new RecordingWriter();
        var result = run(policy("db", SPEC), view(web(null)), writer);
        assertThat(result.targets()).singleElement().satisfies(t -> {
            assertThat(t.state()).isEqualTo(State.Rolling);
            assertThat(t.wrote()).isTrue();
        });
        var patch = (Deployment) writer.applied.get(0);
        assertThat(patch.getSpec().getReplicas()).as("never replicas").isNull();
        assertThat(patch.getSpec().getSelector()).isNull();
        assertThat(patch.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("poolbudget.io/sized",
                "true");
        assertThat(patch.getSpec().getTemplate().getMetadata().getAnnotations())
                .containsExactly(Map.entry("pool-size.poolbudget.io/db", "4"));
        assertThat(writer.log).containsExactly("apply Deployment/web as poolbudget/db");
        assertThat(patch.getSpec().getTemplate().getSpec().getContainers()).singleElement().satisfies(c -> {
            assertThat(c.getName()).isEqualTo("app");
            assertThat(c.getImage()).isNull();
            assertThat(c.getEnv()).extracting(e -> e.getName() + "=" + e.getValue())
                    .containsExactly("HIKARI_MAXIMUM_POOL_SIZE=4", "HIKARI_MINIMUM_IDLE=4");
        });
    }

    @Test
    void aSettledWorkloadIsNotWrittenAgain() {
        var writer = new RecordingWriter();
        var result = run(policy("db", SPEC), view(web(4)), writer);
        assertThat(writer.applied).isEmpty();
        assertThat(result.targets().get(0).state()).isEqualTo(State.Applied);
    }

    @Test
    void aDryRunWritesNothing() {
        var writer = new RecordingWriter();
        var result = run(policy("db", "dryRun: true\n" + SPEC), view(web(null)), writer);
        assertThat(writer.applied).isEmpty();
        assertThat(result.targets().get(0).state()).isEqualTo(State.DryRun);
        assertThat(result.targets().get(0).message())
                .isEqualTo("would apply: first size 4 (the pods hold the app's default 10) applies at once");
    }

    @Test
    void aWorkloadClaimedByAnotherPolicyIsNotWritten() {
        var writer = new RecordingWriter();
        var other = policy("other", """
                database: {cores: 8}
                injection: {preset: hikari-env}
                targets: [{selector: {matchLabels: {tier: web}}}]
                """);
        var result = run(policy("db", SPEC), view(web(null)), writer, other);
        assertThat(writer.applied).isEmpty();
        assertThat(result.targets().get(0).state()).isEqualTo(State.Conflict);
        assertThat(result.targets().get(0).message())
                .isEqualTo("also claimed by PoolPolicy other, which writes the same "
                        + "variables (HIKARI_MAXIMUM_POOL_SIZE in container 'app', HIKARI_MINIMUM_IDLE in container 'app'): neither "
                        + "policy writes it until one lets it go. Two policies may size one workload when they write different "
                        + "variables: name others in spec.injection (maxPoolSizeEnv, minIdleEnv)");
    }

    @Test
    void twoPoliciesWritingDifferentVariablesIntoOneWorkloadBothWriteEachUnderItsOwnNames() {
        var primary = policy("primary", SPEC);
        var replica = policy("replica", """
                database: {cores: 4, instances: 2}
                injection: {maxPoolSizeEnv: REPLICA_POOL_SIZE, minIdleEnv: REPLICA_MIN_IDLE}
                targets: [{name: web}]
                """);
        var view = view(web(null));
        var writer = new RecordingWriter();
        var first = Passes.run(primary, view, List.of(primary, replica), writer, NOW, Duration.ofMinutes(3));
        var second = Passes.run(replica, view, List.of(primary, replica), writer, NOW, Duration.ofMinutes(3));
        assertThat(first.targets().get(0).state()).isEqualTo(State.Rolling);
        assertThat(second.targets().get(0).state()).isEqualTo(State.Rolling);
        assertThat(writer.log).containsExactly("apply Deployment/web as poolbudget/primary",
                "apply Deployment/web as poolbudget/replica");
        var replicaPatch = (Deployment) writer.applied.get(1);
        // 2 replicas -> 4 peak pods; the replica's budget is 2 instances x (4 x 2) = 16 -> 4 per pod
        assertThat(replicaPatch.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .extracting(e -> e.getName() + "=" + e.getValue())
                .containsExactly("REPLICA_POOL_SIZE=4", "REPLICA_MIN_IDLE=4");
        assertThat(replicaPatch.getSpec().getTemplate().getMetadata().getAnnotations())
                .containsOnlyKeys("pool-size.poolbudget.io/replica");
    }

    @Test
    void sharingOnlyTheMinimumIdleVariableIsStillAConflict() {
        var other = policy("other", """
                database: {cores: 8}
                injection: {maxPoolSizeEnv: OTHER_POOL_SIZE, minIdleEnv: HIKARI_MINIMUM_IDLE}
                targets: [{name: web}]
                """);
        var result = run(policy("db", SPEC), view(web(null)), new RecordingWriter(), other);
        assertThat(result.targets().get(0).state()).isEqualTo(State.Conflict);
        assertThat(result.targets().get(0).message())
                .startsWith("also claimed by PoolPolicy other, which writes the same "
                        + "variables (HIKARI_MINIMUM_IDLE in container 'app')");
    }

    @Test
    void sameVariableInAnotherContainerIsNoConflict() {
        Deployment web = web(null);
        web.getSpec().getTemplate().getSpec().getContainers().add(new io.fabric8.kubernetes.api.model.ContainerBuilder()
                .withName("sidecar").build());
        var other = policy("other", """
                database: {cores: 8}
                injection: {preset: hikari-env, containers: [sidecar]}
                targets: [{name: web}]
                """);
        var writer = new RecordingWriter();
        var result = run(policy("db", SPEC.replace("preset: hikari-env", "preset: hikari-env, containers: [app]")),
                view(web), writer, other);
        assertThat(result.targets().get(0).state()).isEqualTo(State.Rolling);
    }

    @Test
    void aFieldOwnedByAnotherManagerIsReportedNotForced() {
        var writer = new RecordingWriter();
        writer.conflict = "Deployment/web: another field manager owns a field";
        var result = run(policy("db", SPEC), view(web(null)), writer);
        assertThat(result.targets().get(0).state()).isEqualTo(State.Conflict);
        assertThat(result.targets().get(0).message()).isEqualTo(writer.conflict);
    }

    @Test
    void aMissingWorkloadIsReportedAndTheOthersAreStillSized() {
        var writer = new RecordingWriter();
        var result = run(policy("db", SPEC.replace("[{name: web}]", "[{name: web}, {name: ghost}]")), view(web(null)),
                writer);
        assertThat(result.targets()).extracting(TargetOutcome::state).containsExactly(State.Rolling, State.NotFound);
        assertThat(result.targets().get(1).message()).isEqualTo(
                "Deployment/ghost does not exist in this namespace (named by spec.targets[1].name)");
    }

    @Test
    void aRaiseIsHeldAndTheTimeItWasFirstHeldIsKept() {
        var writer = new RecordingWriter();
        var result = run(policy("db", SPEC), view(web(2)), writer); // 2 -> 4 is a raise
        assertThat(writer.applied).isEmpty();
        assertThat(result.targets().get(0).state()).isEqualTo(State.Pending);
        assertThat(result.targets().get(0).pendingSince()).isEqualTo(NOW);
        assertThat(result.requeue()).isEqualTo(Duration.ofMinutes(3));
    }

    @Test
    void ghostsAtTheDatabaseHoldARaiseAndItGoesOnOnceTheyAreGone() {
        var writer = new RecordingWriter();
        var p = policy("db", SPEC);
        var ghosts = List.of("5 connections from 10.244.0.17 of pod shop/web-1 (Deployment/web), gone since "
                + "2026-01-01T09:58:00Z (ghosts the database still holds)");
        // 2 -> 4 with no stabilisation window: held only by the ghosts
        var held = Passes.run(p, view(web(2)).withHeldElsewhere(ghosts), List.of(p), writer, NOW, Duration.ZERO);
        assertThat(writer.applied).isEmpty();
        assertThat(held.targets().get(0).state()).isEqualTo(State.Pending);
        assertThat(held.targets().get(0).message()).contains("10.244.0.17 of pod shop/web-1");
        var freed = Passes.run(p, view(web(2)).withHeldElsewhere(List.of()), List.of(p), writer, NOW, Duration.ZERO);
        assertThat(freed.targets().get(0).state()).isEqualTo(State.Rolling);
        assertThat(writer.applied).hasSize(1);
    }
}
