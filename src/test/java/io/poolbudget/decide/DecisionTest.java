package io.poolbudget.decide;

import static io.poolbudget.decide.PolicyPassTest.SPEC;
import static io.poolbudget.decide.PolicyPassTest.policy;
import static io.poolbudget.decide.PolicyPassTest.view;
import static io.poolbudget.decide.PolicyPassTest.web;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.decide.TargetOutcome.State;
import io.poolbudget.status.StatusAggregator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pass decided, with no client and no writer: exactly the writes it asks for, the status it announces while they go
 * out, and the status it ends with once they are in, or refused.
 */
class DecisionTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");

    private static Decision decide(PoolPolicy p, ClusterView view) {
        return PolicyPass.decide(p, view, List.of(p), null, NOW, Duration.ofMinutes(3));
    }

    private static PoolPolicyStatus status(PoolPolicy p, PassResult r) {
        return new StatusAggregator(Clock.fixed(NOW, java.time.ZoneOffset.UTC)).status(p, r);
    }

    private static String conditions(PoolPolicyStatus s) {
        return String.join("\n", s.getConditions().stream().map(c -> c.getType() + "=" + c.getStatus() + " "
                + c.getReason() + ": " + c.getMessage()).toList());
    }

    @Test
    void aShrinkIsOneWriteOfThePoolSizeAloneAnnouncedWithTheSizeTheTemplateStillHas() {
        var p = policy("db", SPEC);
        Decision d = decide(p, view(web(6))); // 2 replicas + 1 surge + 1 terminating, budget 16: 4 per pod, a shrink

        assertThat(d.writes()).singleElement().satisfies(w -> {
            assertThat(w.fieldManager()).isEqualTo("poolbudget/db");
            assertThat(w.objects()).singleElement().satisfies(o -> {
                var patch = (Deployment) o;
                assertThat(patch.getMetadata().getName()).isEqualTo("web");
                assertThat(patch.getSpec().getReplicas()).as("never replicas").isNull();
                assertThat(patch.getSpec().getTemplate().getMetadata().getLabels())
                        .containsExactly(Map.entry("poolbudget.io/sized", "true"));
                assertThat(patch.getSpec().getTemplate().getMetadata().getAnnotations())
                        .containsExactly(Map.entry("pool-size.poolbudget.io/db", "4"));
                assertThat(patch.getSpec().getTemplate().getSpec().getContainers()).singleElement()
                        .satisfies(c -> assertThat(c.getEnv()).extracting(e -> e.getName() + "=" + e.getValue())
                                .containsExactly("HIKARI_MAXIMUM_POOL_SIZE=4", "HIKARI_MINIMUM_IDLE=4"));
            });
        });
        assertThat(d.announce()).isTrue();
        assertThat(d.requeue()).isNull();

        // its 2 old pods at 6 beside 2 new ones at 4 may hold 20 of 16 while it rolls (issue 53, item 4): said too
        String note = d.result(Arrays.asList((String) null)).targets().get(0).transition();
        assertThat(note).startsWith("lowering Deployment/web 6 → 4 by a rolling update may hold up to 20 of the "
                + "budget's 16 connections while it rolls");
        var announced = status(p, d.announced());
        assertThat(announced.getTargets()).singleElement().satisfies(t -> {
            assertThat(t.getState()).isEqualTo("Rolling");
            assertThat(t.getPoolSize()).isEqualTo(4);
            assertThat(t.getAppliedPoolSize()).as("the template still has the old size").isEqualTo(6);
            assertThat(t.getMessage()).isEqualTo("writing pool size 4: lower size 6 → 4 applies at once; " + note);
        });
        assertThat(conditions(announced)).startsWith("Ready=True Reconciled: every target is sized within the budget");

        var done = status(p, d.result(Arrays.asList((String) null)));
        assertThat(done.getTargets()).singleElement().satisfies(t -> {
            assertThat(t.getState()).isEqualTo("Rolling");
            assertThat(t.getAppliedPoolSize()).isEqualTo(4);
            assertThat(t.getMessage()).isEqualTo("lower size 6 → 4 applies at once; " + note);
        });
        assertThat(d.result(Arrays.asList((String) null)).targets().get(0).wrote()).isTrue();
        assertThat(conditions(done)).isEqualTo(
                """
                        Ready=True Reconciled: every target is sized within the budget; the sizes are declared in the pod specs, \
                        not verified: set spec.database.observe to compare them with the database's own count (an app that does \
                        not read the injected variable keeps its own pool)
                        Oversubscribed=False WithinBudget: 16 of 16 connections allocated; the pods hold 12 now
                        RolloutInProgress=True Rolling: in progress: Deployment/web (Rolling: lower size 6 → 4 applies at once; \
                        %s)
                        Conflict=False NoConflict: no workload is claimed twice or blocked by another field manager"""
                        .formatted(note));
    }

    @Test
    void aWriteTheApiServerRefusesEndsAsAConflictWithTheSizeTheTemplateStillHas() {
        var p = policy("db", SPEC);
        Decision d = decide(p, view(web(6)));
        var refused = d.result(List.of("Deployment/web: another field manager owns a field the operator would set"));
        assertThat(refused.targets()).singleElement().satisfies(t -> {
            assertThat(t.state()).isEqualTo(State.Conflict);
            assertThat(t.applied()).isEqualTo(6);
            assertThat(t.wrote()).isFalse();
            assertThat(t.message())
                    .isEqualTo("Deployment/web: another field manager owns a field the operator would set");
        });
        assertThat(conditions(status(p, refused))).contains("Ready=False Conflict: not written because of a conflict: "
                + "Deployment/web (Conflict: Deployment/web: another field manager owns a field the operator would set)");
    }

    @Test
    void inConfigMapModeTheConfigMapIsWrittenBeforeTheTemplateThatRefersToIt() {
        var p = policy("db", SPEC.replace("preset: hikari-env", "preset: hikari-env, mode: ConfigMap"));
        assertThat(decide(p, view(web(null))).writes()).singleElement().satisfies(w -> {
            assertThat(w.objects()).extracting(o -> o.getClass().getSimpleName() + "/" + o.getMetadata().getName())
                    .containsExactly("ConfigMap/poolbudget-db-deployment-web", "Deployment/web");
            assertThat(((ConfigMap) w.objects().get(0)).getData()).containsExactly(
                    Map.entry("maxPoolSize", "4"),
                    Map.entry("minIdle", "4"));
        });
    }

    @Test
    void nothingIsWrittenNorAnnouncedWhereNothingChangesOrInADryRun() {
        for (var d : List.of(decide(policy("db", SPEC), view(web(4))),
                decide(policy("db", "dryRun: true\n" + SPEC), view(web(null))))) {
            assertThat(d.writes()).isEmpty();
            assertThat(d.announce()).isFalse();
            assertThat(d.announced()).isNull();
        }
    }

    @Test
    void aWriteThatFailedLastTimeIsNotAnnouncedAsUnderWayAgain() {
        var p = policy("db", SPEC);
        p.setStatus(Serialization.unmarshal("""
                targets: [{kind: Deployment, name: web, state: Conflict, poolSize: 4, message: "conflict with helm"}]
                """, PoolPolicyStatus.class));
        Decision d = decide(p, view(web(6)));
        assertThat(d.writes()).as("it is tried again").hasSize(1);
        assertThat(d.announce()).isFalse();
    }

    @Test
    void aRaiseHeldByTheWindowIsNoWriteAndSaysWhenToLookAgain() {
        Decision d = decide(policy("db", SPEC), view(web(2)));
        assertThat(d.writes()).isEmpty();
        assertThat(d.requeue()).isEqualTo(Duration.ofMinutes(3));
        assertThat(d.result(List.of()).targets()).singleElement().satisfies(t -> {
            assertThat(t.state()).isEqualTo(State.Pending);
            assertThat(t.pendingSince()).isEqualTo(NOW);
        });
    }
}
