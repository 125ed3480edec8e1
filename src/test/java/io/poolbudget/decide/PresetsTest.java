package io.poolbudget.decide;

import static io.poolbudget.decide.PolicyPassTest.gitea;
import static io.poolbudget.decide.PolicyPassTest.policy;
import static io.poolbudget.decide.PolicyPassTest.view;
import static io.poolbudget.decide.PolicyPassTest.web;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvFromSourceBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.poolbudget.api.v1alpha1.InjectionMode;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.Preset;
import io.poolbudget.planning.InvalidPolicyException;
import io.poolbudget.planning.PolicyPlanner;
import io.poolbudget.sizing.Limits;
import io.poolbudget.status.Holding;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Every preset: what its app reads, what a pod without it may open, the smallest pool; mode EnvFrom's writes and its
 * template checks. The same definitions serve the operator and plan (both through {@link PolicyPlanner} and
 * {@link Injection}).
 */
class PresetsTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");

    private static InjectionSpec spec(Preset preset) {
        var spec = new InjectionSpec();
        spec.setPreset(preset);
        return spec;
    }

    /** preset, variables (or keys, for EnvFrom) written, what a pod without them may open (-1: no limit), smallest. */
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "SPRING_BOOT_HIKARI; SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE SPRING_DATASOURCE_HIKARI_MINIMUMIDLE; 10; 1",
            "QUARKUS_AGROAL; QUARKUS_DATASOURCE_JDBC_MAX_SIZE QUARKUS_DATASOURCE_JDBC_MIN_SIZE; 50; 1",
            "MICRONAUT_HIKARI; DATASOURCES_DEFAULT_MAXIMUM_POOL_SIZE DATASOURCES_DEFAULT_MINIMUM_IDLE; 10; 1",
            "QUARKUS_REACTIVE; QUARKUS_DATASOURCE_REACTIVE_MAX_SIZE; 20; 1",
            "SPRING_R2DBC; SPRING_R2DBC_POOL_MAX_SIZE SPRING_R2DBC_POOL_MIN_IDLE SPRING_R2DBC_POOL_INITIAL_SIZE; 10; 1",
            "HIKARI_ENV; HIKARI_MAXIMUM_POOL_SIZE HIKARI_MINIMUM_IDLE; 10; 1",
            "KEYCLOAK; KC_DB_POOL_MAX_SIZE KC_DB_POOL_MIN_SIZE KC_DB_POOL_INITIAL_SIZE; 100; 2",
            "ECTO; POOL_SIZE; 10; 1",
            "GITEA; GITEA__database__MAX_OPEN_CONNS GITEA__database__MAX_IDLE_CONNS; -1; 1",
            "MATTERMOST; MM_SQLSETTINGS_MAXOPENCONNS MM_SQLSETTINGS_MAXIDLECONNS; 300; 1",
            "PGX; POOLBUDGET_MAX_POOL_SIZE POOLBUDGET_MIN_POOL_SIZE; -1; 1",
            "PRISMA; POOLBUDGET_MAX_POOL_SIZE POOLBUDGET_MIN_POOL_SIZE; -1; 1",
            "NPGSQL; POOLBUDGET_MAX_POOL_SIZE POOLBUDGET_MIN_POOL_SIZE; 100; 1",
            "RAILS; POOLBUDGET_MAX_POOL_SIZE POOLBUDGET_MIN_POOL_SIZE; 5; 1"})
    void eachPresetSaysWhatItsAppReadsAndWhatAPodWithoutItMayOpen(Preset preset, String names, int without,
            int smallest) {
        var spec = spec(preset);
        assertThat(String.join(" ", Injection.EnvNames.of(spec).all())).isEqualTo(names);
        assertThat(Injection.appDefault(spec)).isEqualTo(without < 0 ? Limits.POOL_SIZE : without);
        assertThat(preset.minimumPool()).isEqualTo(smallest);
        assertThat(InjectionMode.of(spec)).isEqualTo(preset.knobs().url() ? InjectionMode.EnvFrom : InjectionMode.Env);
        spec.setAppDefaultPoolSize(7);
        assertThat(Injection.appDefault(spec)).as("the policy says what its pods open").isEqualTo(7);
    }

    @Test
    void aNamedDatasourceIsSizedThroughItsOwnVariables() {
        var quarkus = spec(Preset.QUARKUS_AGROAL);
        quarkus.setDatasource("orders-db");
        assertThat(Injection.EnvNames.of(quarkus).all()).containsExactly("QUARKUS_DATASOURCE_ORDERS_DB_JDBC_MAX_SIZE",
                "QUARKUS_DATASOURCE_ORDERS_DB_JDBC_MIN_SIZE");
        var micronaut = spec(Preset.MICRONAUT_HIKARI);
        micronaut.setDatasource("orders");
        assertThat(Injection.EnvNames.of(micronaut).all()).containsExactly("DATASOURCES_ORDERS_MAXIMUM_POOL_SIZE",
                "DATASOURCES_ORDERS_MINIMUM_IDLE");
    }

    @Test
    void keycloakTargetsGetAtLeastTwoUnlessTheySaySo() {
        // 2 replicas + 1 surge + 1 terminating = 4 peak pods: budget 6 gives 1 per pod, Keycloak's minimum 2 does not fit
        var keycloak = policy("kc", "database: {cores: 1, budget: 6}\ninjection: {preset: keycloak}\n"
                + "targets: [{name: web}]\n");
        var plan = PolicyPlanner.plan(keycloak, view(web(null)), p -> null);
        assertThat(plan.allocation().targets()).singleElement().satisfies(t -> assertThat(t.poolSize()).isEqualTo(2));
        var one = policy("kc", "database: {cores: 1, budget: 6}\ninjection: {preset: keycloak}\n"
                + "targets: [{name: web, minPoolSize: 1}]\n");
        assertThat(PolicyPlanner.plan(one, view(web(null)), p -> null).allocation().targets())
                .singleElement().satisfies(t -> assertThat(t.poolSize()).isEqualTo(1));
    }

    @Test
    void aForkingServersPodHoldsAPoolPerWorker() {
        var d = web(null);
        d.getSpec().getTemplate().getSpec().getContainers().get(0)
                .setEnv(List.of(new EnvVar(io.poolbudget.planning.Workload.WORKERS_ENV, "3", null)));
        var rails = policy("db", "database: {cores: 8}\ninjection: {preset: rails}\ntargets: [{name: web}]\n");
        assertThat(PolicyPlanner.plan(rails, view(d), p -> null).allocation().targets()).singleElement()
                .satisfies(t -> assertThat(t.poolsPerPod()).isEqualTo(3));
        var said = policy("db",
                "database: {cores: 8}\ninjection: {preset: rails}\ntargets: [{name: web, poolsPerPod: 2}]\n");
        assertThat(PolicyPlanner.plan(said, view(d), p -> null).allocation().targets()).singleElement()
                .satisfies(t -> assertThat(t.poolsPerPod()).as("the target says").isEqualTo(2));
        d.getSpec().getTemplate().getSpec().getContainers().get(0)
                .setEnv(List.of(new EnvVar(io.poolbudget.planning.Workload.WORKERS_ENV, "auto", null)));
        assertThatThrownBy(() -> PolicyPlanner.plan(rails, view(d), p -> null))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessageStartingWith("spec.targets[0].poolsPerPod is required");
        assertThat(PolicyPlanner.plan(said, view(d), p -> null).allocation().targets()).singleElement()
                .satisfies(t -> assertThat(t.poolsPerPod()).as("unless the target says").isEqualTo(2));
        var jvm = policy("db", "database: {cores: 8}\ninjection: {preset: hikari-env}\ntargets: [{name: web}]\n");
        assertThat(PolicyPlanner.plan(jvm, view(d), p -> null).allocation().targets()).singleElement()
                .satisfies(t -> assertThat(t.poolsPerPod()).as("a preset that does not fork").isEqualTo(1));
    }

    @Test
    void planRefusesWhatTheCrdRulesRefuseWithTheirWords() {
        var datasource = policy("db", "database: {cores: 4}\ninjection: {preset: hikari-env, datasource: orders}\n"
                + "targets: [{name: web}]\n");
        assertThatThrownBy(() -> PolicyPlanner.plan(datasource, view(web(null)), p -> null))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("spec.injection.datasource")
                .hasMessageContaining(InjectionSpec.DATASOURCE_MESSAGE.substring("injection.datasource ".length()));
        var envMode = policy("db",
                "database: {cores: 4}\ninjection: {preset: pgx, mode: Env}\ntargets: [{name: web}]\n");
        assertThatThrownBy(() -> PolicyPlanner.plan(envMode, view(web(null)), p -> null))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("spec.injection.mode")
                .hasMessageContaining("EnvFrom");
    }

    @Test
    void aRaiseWaitsWhileAnotherTargetsPodsHaveNoLimitAndGoesOnOnceItIsSized() {
        // web was held for the window already: only what other targets hold can keep it waiting
        String spec = "database: {cores: 8}\ninjection: {preset: gitea}\ntargets: [{name: web}, {name: api}]\n";
        var held = policy("db", spec);
        held.setStatus(io.fabric8.kubernetes.client.utils.Serialization.unmarshal("targets: [{kind: Deployment, "
                + "name: web, state: Pending, poolSize: 2, appliedPoolSize: 1, pendingSince: '2025-12-31T10:00:00Z'}]",
                io.poolbudget.api.v1alpha1.PoolPolicyStatus.class));
        // 2 replicas + 1 surge + 1 terminating = 4 peak pods each, budget 16: 2 per pod; web runs 1, api has no limit yet
        var unsized = PolicyPass.decide(held, view(gitea("web", 1), gitea("api", null)), List.of(held), null, NOW,
                Duration.ofMinutes(3));
        assertThat(unsized.writes()).as("api's first size, a lowering from no limit, at once").singleElement()
                .satisfies(w -> assertThat(w.objects()).extracting(o -> o.getMetadata().getName()).contains("api"));
        assertThat(unsized.targets()).extracting(Decision.Slot::outcome).filteredOn(o -> o != null)
                .singleElement().satisfies(o -> {
                    assertThat(o.name()).isEqualTo("web");
                    assertThat(o.state()).isEqualTo(TargetOutcome.State.Pending);
                    assertThat(o.message()).contains("Deployment/api");
                });
        var sized = PolicyPass.decide(held, view(gitea("web", 1), gitea("api", 2)), List.of(held), null, NOW,
                Duration.ofMinutes(3));
        assertThat(sized.writes()).as("web's raise, once api holds its plan").singleElement()
                .satisfies(w -> assertThat(w.objects()).extracting(o -> o.getMetadata().getName()).contains("web"));
    }

    @Test
    void podsWithoutALimitAreNeverCountedAsADefault() {
        assertThat(Holding.words(2L * Limits.POOL_SIZE, 2L * Limits.POOL_SIZE, 0, true, " of 16 connections now", null))
                .startsWith("the pods may open any number of connections")
                .contains("every raise waits until they are sized").doesNotContain("2000000");
    }

    private static final String PGX = "database: {cores: 8}\ninjection: {preset: pgx}\ntargets: [{name: web}]\n";
    private static final String CM = "poolbudget-db-deployment-web";

    private static Deployment reading(String... env) {
        var d = web(null);
        var c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        c.setEnvFrom(List.of(new EnvFromSourceBuilder().withNewConfigMapRef().withName(CM).endConfigMapRef().build()));
        List<EnvVar> vars = new ArrayList<>();
        for (int i = 0; i < env.length; i += 2) {
            vars.add(new EnvVar(env[i], env[i + 1], null));
        }
        c.setEnv(vars);
        return d;
    }

    private static Decision decide(String spec, Deployment d) {
        var p = policy("db", spec);
        return PolicyPass.decide(p, view(d), List.of(p), null, NOW, Duration.ofMinutes(3));
    }

    @Test
    void inModeEnvFromTheOperatorWritesItsConfigMapAndTheHashButNoVariable() {
        var d = decide(PGX,
                reading("DATABASE_URL", "postgres://app@db/app?pool_max_conns=$(POOLBUDGET_MAX_POOL_SIZE)"));
        assertThat(d.writes()).singleElement().satisfies(w -> {
            assertThat(w.objects()).extracting(o -> o.getClass().getSimpleName() + "/" + o.getMetadata().getName())
                    .containsExactly("ConfigMap/" + CM, "Deployment/web");
            assertThat(((ConfigMap) w.objects().get(0)).getData())
                    .containsExactly(Map.entry("POOLBUDGET_MAX_POOL_SIZE", "4"),
                            Map.entry("POOLBUDGET_MIN_POOL_SIZE", "4"));
            var template = ((Deployment) w.objects().get(1)).getSpec().getTemplate();
            assertThat(template.getSpec()).as("no container field of the app's is the operator's").isNull();
            assertThat(template.getMetadata().getAnnotations()).containsKeys("pool-size.poolbudget.io/db",
                    "config-hash.poolbudget.io/db");
        });
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            // no envFrom at all
            "none; DATABASE_URL; postgres://db/app?pool_max_conns=$(POOLBUDGET_MAX_POOL_SIZE); no container reads the operator's values",
            // reads it, refers to nothing
            "ours; DATABASE_URL; postgres://db/app?pool_max_conns=8; refers to $(POOLBUDGET_MAX_POOL_SIZE)",
            // an escaped reference is the literal text, not a reference
            "ours; DATABASE_URL; postgres://db/app?pool_max_conns=$$(POOLBUDGET_MAX_POOL_SIZE); refers to $(POOLBUDGET_MAX_POOL_SIZE)",
            // hides the operator's value
            "ours; POOLBUDGET_MAX_POOL_SIZE; 8; sets POOLBUDGET_MAX_POOL_SIZE itself"})
    void aTemplateWhoseValueWouldNotExpandIsAProblemBeforeAnyPodStarts(String envFrom, String name, String value,
            String problem) {
        var d = reading(name, value);
        if (envFrom.equals("none")) {
            d.getSpec().getTemplate().getSpec().getContainers().get(0).setEnvFrom(null);
        }
        var decision = decide(PGX, d);
        assertThat(decision.writes()).as("nothing written").isEmpty();
        assertThat(decision.targets()).extracting(Decision.Slot::outcome).singleElement().satisfies(o -> {
            assertThat(o.state()).isEqualTo(TargetOutcome.State.Conflict);
            assertThat(o.message()).contains(problem);
        });
    }

    @Test
    void twoPoliciesValuesInOneContainerNeedTheirOwnPrefixes() {
        var d = reading("DATABASE_URL", "postgres://db/app?pool_max_conns=$(POOLBUDGET_MAX_POOL_SIZE)");
        var c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        var both = new ArrayList<>(c.getEnvFrom());
        both.add(new EnvFromSourceBuilder().withNewConfigMapRef().withName("poolbudget-replica-deployment-web")
                .endConfigMapRef().build());
        c.setEnvFrom(both);
        assertThat(decide(PGX, d).targets()).extracting(Decision.Slot::outcome).singleElement()
                .satisfies(o -> assertThat(o.message())
                        .contains("reads 2 ConfigMaps of the operator under the same prefix"));
        both.set(1, new EnvFromSourceBuilder().withPrefix("REPLICA_").withNewConfigMapRef()
                .withName("poolbudget-replica-deployment-web").endConfigMapRef().build());
        assertThat(decide(PGX, d).writes()).hasSize(1);
    }

    @Test
    void aFirstRaiseInModeEnvFromStillGivesItsPodsAConfigMapToStartWith() {
        // plan 4 per pod above the app's default of 2: a raise, held; but the template already reads the ConfigMap,
        // so without it its new pods could never start and the rollout the raise waits for would never end
        String spec = "database: {cores: 8}\ninjection: {mode: EnvFrom, appDefaultPoolSize: 2}\ntargets: [{name: web}]\n";
        var d = decide(spec, reading("POOL", "$(POOLBUDGET_MAX_POOL_SIZE)"));
        assertThat(d.writes()).singleElement().satisfies(w -> {
            assertThat(((ConfigMap) w.objects().get(0)).getData()).containsEntry("POOLBUDGET_MAX_POOL_SIZE", "2");
            assertThat(w.written().message()).contains("first values at 2 so that its pods can start")
                    .contains("the raise to 4");
        });
    }

    @Test
    void referencesInArgsCountAndAnEvenRunOfDollarsIsNoEscape() {
        var args = reading("DATABASE_URL", "postgres://db/app");
        args.getSpec().getTemplate().getSpec().getContainers().get(0)
                .setArgs(List.of("--pool-max=$(POOLBUDGET_MAX_POOL_SIZE)"));
        assertThat(decide(PGX, args).writes()).as("Kubernetes expands args too").hasSize(1);
        assertThat(
                decide(PGX, reading("DATABASE_URL", "postgres://db/app?pool_max_conns=$$$(POOLBUDGET_MAX_POOL_SIZE)"))
                        .writes())
                .as("$$ is a dollar, then the reference").hasSize(1);
        var direct = reading("OTHER", "x");
        assertThat(decide("database: {cores: 8}\ninjection: {mode: EnvFrom}\ntargets: [{name: web}]\n", direct)
                .writes()).as("without a preset the app may read the key itself").hasSize(1);
    }

    @Test
    void aPrefixedEnvFromIsReferredToWithItsPrefix() {
        var d = reading("DATABASE_URL", "postgres://db/app?pool_max_conns=$(PB_POOLBUDGET_MAX_POOL_SIZE)");
        d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnvFrom().get(0).setPrefix("PB_");
        assertThat(decide(PGX, d).writes()).hasSize(1);
    }
}
