package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.poolbudget.status.StatusAggregator;

import static io.poolbudget.decide.PolicyPassTest.policy;
import static io.poolbudget.decide.PolicyPassTest.view;
import static io.poolbudget.decide.PolicyPassTest.web;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.decide.TargetOutcome.State;
import io.poolbudget.decide.PolicyPassTest.RecordingWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cases issue "never wedged, never silent" found: each must be reported, not passed over. */
class PolicyPassProblemsTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final String SPEC = PolicyPassTest.SPEC;

    private static PassResult run(PoolPolicy p, ClusterView view, RecordingWriter writer) {
        return Passes.run(p, view, List.of(p), writer, NOW, Duration.ofMinutes(3));
    }

    private static PassResult run(PoolPolicy p, ClusterView view) {
        return run(p, view, new RecordingWriter());
    }

    private static io.poolbudget.api.v1alpha1.PoolPolicyStatus status(PoolPolicy p, PassResult r) {
        return new StatusAggregator(Clock.fixed(NOW, ZoneOffset.UTC)).status(p, r);
    }

    private static String condition(io.poolbudget.api.v1alpha1.PoolPolicyStatus s, String type) {
        return s.getConditions().stream().filter(c -> c.getType().equals(type))
                .map(c -> c.getStatus() + "/" + c.getReason() + ": " + c.getMessage()).findFirst().orElseThrow();
    }

    /** A pod of web, labelled by the operator, holding {@code size}; terminating when {@code terminating}. */
    private static Pod pod(String name, Integer size, boolean terminating) {
        return pod(name, size, terminating, "rev-" + size);
    }

    /** As above, of the ReplicaSet whose template hash is {@code hash}. */
    private static Pod pod(String name, Integer size, boolean terminating, String hash) {
        var b = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns")
                .withLabels(Map.of("app", "web", Owner.SIZED_LABEL, "true", "pod-template-hash", hash)).endMetadata()
                .withNewSpec().addNewContainer().withName("app").endContainer().endSpec();
        if (terminating) {
            b.editMetadata().withDeletionTimestamp("2026-01-01T09:59:59Z").endMetadata();
        }
        var pod = b.build();
        if (size != null) {
            pod.getSpec().getContainers().get(0).setEnv(List.of(new EnvVarBuilder().withName("HIKARI_MAXIMUM_POOL_SIZE")
                    .withValue(size.toString()).build()));
        }
        return pod;
    }

    @Test
    void aValueStoredBeyondTheSchemaIsAnInvalidSpecNamingTheField() {
        var result = run(policy("db", SPEC.replace("cores: 8", "cores: 8, budget: 3000000000")), view(web(null)));
        assertThat(result.invalid()).hasMessage("spec.database.budget must be at most 1000000, got 3000000000");
        var tooManyPools = run(policy("db", SPEC.replace("{name: web}", "{name: web, poolsPerPod: 3000000000}")),
                view(web(null)));
        assertThat(tooManyPools.invalid())
                .hasMessage("spec.targets[0].poolsPerPod must be at most 1000, got 3000000000");
    }

    @Test
    void liveConnectionsCountEveryPodAtWhatItHoldsAndTheRestAtTheAppDefault() {
        // web: 3 replicas by status; one labelled running pod at 6 and one labelled terminating pod at 6 (which the
        // status may still count), one running pod the cache does not hold (started before the operator labelled web)
        // counted at HikariCP's 10.
        Deployment web = web(4);
        web.getStatus().setReplicas(3);
        web.getStatus().setUpdatedReplicas(0); // no pod of the template at 4 yet
        web.getSpec().getTemplate().getMetadata().setAnnotations(Map.of(new Owner("db").sizeAnnotation(), "4"));
        var view = new ClusterView(List.of(web), List.of(), List.of(),
                List.of(pod("web-1", 6, false), pod("web-0", 6, true)), List.of());
        var result = run(policy("db", SPEC), view);
        assertThat(result.targets().get(0).live()).isEqualTo(6 + 6 + 10);
        var s = status(policy("db", SPEC), result);
        assertThat(s.getLiveConnections()).isEqualTo(22);
        // the unmarked pod is counted at the app's default: what it may open, and the words say so (issue 41)
        assertThat(condition(s, "Oversubscribed")).startsWith("True/LiveOverBudget: the pods may open 22 of 16 "
                + "connections now (terminating pods included; 10 of them at the app's default pool, for pods the "
                + "operator has not sized yet: what those may open, not what they hold)");
        assertThat(condition(s, "Ready")).startsWith("False/LiveOverBudget");
    }

    @Test
    void aDeclaredOverBudgetMomentIsReportedOnlyOnceItOutlastsTheGrace() {
        // a routine restart of pods the operator sized, whose old pods are slow to stop: 5 pods at 4 (two terminating)
        Deployment web = web(4);
        web.getStatus().setReplicas(3);
        web.getStatus().setUpdatedReplicas(2);
        web.getSpec().getTemplate().getMetadata().setAnnotations(Map.of(new Owner("db").sizeAnnotation(), "4"));
        var view = new ClusterView(List.of(web), List.of(), List.of(), List.of(pod("web-0", 4, true, "a"),
                pod("web-1", 4, true, "a"), pod("web-2", 4, false, "a"), pod("web-3", 4, false, "b"),
                pod("web-4", 4, false, "b")), List.of());
        var clock = new java.util.concurrent.atomic.AtomicReference<>(NOW);
        var aggregator = new StatusAggregator(new Clock() {
            @Override
            public java.time.ZoneId getZone() { return ZoneOffset.UTC; }
            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }
            @Override
            public Instant instant() {
                return clock.get();
            }
        }, Duration.ofSeconds(15));
        var p = policy("db", SPEC);
        var first = aggregator.build(p, run(p, view), null, null, null);
        assertThat(condition(first.status(), "Oversubscribed")).startsWith("False/WithinBudget: 15 of 16 connections "
                + "allocated; the pods hold 20 now by their specs, more than the budget since 2026-01-01T10:00:00Z "
                + "(reported if it lasts 15 s");
        assertThat(condition(first.status(), "Ready")).as("quiet within the grace").startsWith("True/Reconciled");
        assertThat(aggregator.recheck(first.overSince())).isEqualTo(Duration.ofSeconds(15));

        clock.set(NOW.plusSeconds(15));
        var lasting = aggregator.build(p, run(p, view), first.status().getConditions(), first.overSince(), null);
        assertThat(condition(lasting.status(), "Oversubscribed"))
                .startsWith("True/LiveOverBudget: the pods hold 20 of 16");
        assertThat(aggregator.recheck(lasting.overSince())).isNull();

        // gone below, then above again: a new moment waits out the grace again
        clock.set(NOW.plusSeconds(20));
        var within = new ClusterView(List.of(web(4)), List.of(), List.of(), List.of(pod("web-1", 4, false),
                pod("web-2", 4, false)), List.of());
        var below = aggregator.build(p, run(p, within), lasting.status().getConditions(), lasting.overSince(), null);
        assertThat(condition(below.status(), "Oversubscribed")).startsWith("False/WithinBudget");
        assertThat(below.overSince()).isNull();
        clock.set(NOW.plusSeconds(21));
        assertThat(condition(aggregator.build(p, run(p, view), below.status().getConditions(), below.overSince(), null)
                .status(), "Oversubscribed")).startsWith("False/WithinBudget");
    }

    /** web at pool size 4 in a template the operator sized, its status counting {@code replicas}, {@code updated} current. */
    private static Deployment sizedWeb(int replicas, int updated) {
        Deployment web = web(4);
        web.getMetadata().setUid("uid-web");
        web.getSpec().getTemplate().getMetadata().setAnnotations(Map.of(new Owner("db").sizeAnnotation(), "4"));
        web.getStatus().setReplicas(replicas);
        web.getStatus().setUpdatedReplicas(updated);
        return web;
    }

    private static long live(SettledWorkloads settled, Deployment web, Pod... pods) {
        var view = new ClusterView(List.of(web), List.of(), List.of(), List.of(pods), List.of(), settled, NOW);
        return run(policy("db", SPEC), view).targets().get(0).live();
    }

    @Test
    void aPodGoneWhileTheStatusStillCountsItIsNotCountedOnceEveryPodIsKnownToCarryTheMarker() {
        var settled = new SettledWorkloads();
        // rolled out at the sized template: two marked pods at 4, and the status agrees
        assertThat(live(settled, sizedWeb(2, 2), pod("web-1", 4, false), pod("web-2", 4, false))).isEqualTo(8);
        // a rollout step: web-2 has finished terminating and is gone from the informer, web-3 has started; the status
        // has not caught up and still counts 3. No pod holds a pool at the app's default: the pods hold 8.
        Deployment lagging = sizedWeb(3, 1);
        assertThat(live(settled, lagging, pod("web-1", 4, false, "a"), pod("web-3", 4, false, "b"))).isEqualTo(8);
        // an operator that has not seen web rolled out (just restarted) cannot tell the third from a pod started before
        // web was first sized, which the informer does not cache, and counts it at HikariCP's default
        assertThat(live(new SettledWorkloads(), lagging, pod("web-1", 4, false, "a"), pod("web-3", 4, false, "b")))
                .isEqualTo(4 + 4 + 10);
        // rolled back to a template the operator did not size: its pods are not marked, so the status counts them again
        Deployment rolledBack = sizedWeb(3, 1);
        rolledBack.getSpec().getTemplate().getMetadata().setAnnotations(Map.of());
        assertThat(live(settled, rolledBack, pod("web-1", 4, false), pod("web-3", 4, false))).isEqualTo(4 + 4 + 4);
        assertThat(live(settled, lagging, pod("web-1", 4, false, "a"), pod("web-3", 4, false, "b")))
                .isEqualTo(4 + 4 + 10);
    }

    @Test
    void aPodThatBeganTerminatingBeforeTheStatusCaughtUpIsCountedOnce() {
        // a rollout step: web-2 (the surge pod) is Ready, so web-0 began terminating; the Deployment's status still
        // counts 3 replicas, web-0 among them. The pods hold 4 + 4 + 4 = 12, not 12 + the app's default 10 for a
        // phantom pod (the false LiveOverBudget issue 20 found on every rollout).
        Deployment web = web(4);
        web.getStatus().setReplicas(3);
        web.getStatus().setUpdatedReplicas(1); // a restart: web-2 is of the new template, web-0 and web-1 of the old
        web.getSpec().getTemplate().getMetadata().setAnnotations(Map.of(new Owner("db").sizeAnnotation(), "4"));
        var view = new ClusterView(List.of(web), List.of(), List.of(), List.of(pod("web-0", 4, true, "a"),
                pod("web-1", 4, false, "a"), pod("web-2", 4, false, "b")), List.of());
        var s = status(policy("db", SPEC), run(policy("db", SPEC), view));
        assertThat(s.getLiveConnections()).isEqualTo(12);
        assertThat(condition(s, "Oversubscribed")).startsWith("False/WithinBudget");
        assertThat(condition(s, "Ready")).startsWith("True/Reconciled");
    }

    @Test
    void aPoolOfOneThatTheRolloutReserveCostsIsAdviceInTheExplanationNotAnAlarm() {
        // budget 4 for 2 replicas + 1 surge + 1 terminating: 1 per pod, the running pods use 2 of the 4
        String small = SPEC.replace("database: {cores: 8}", "database: {budget: 4}");
        var s = status(policy("db", small), run(policy("db", small), view(web(1))));
        // the reserve's note, then the drain's (no PodDisruptionBudget selects its pods)
        assertThat(s.getTargets()).singleElement().satisfies(t -> assertThat(t.getExplanation()).contains(". Note: "
                + "Deployment/web gets a pool of 1 per pod: its rollout reserve (2 of its 4 peak pods) is counted at the "
                + "same pool, so in steady state its running pods use 2 of the budget's 4 connections, and a pool of 1 "
                + "serialises each pod's requests. More budget, or maxSurge: 0 on it, gives its pods more (check with plan). "
                + "An app that takes a second connection while it holds one (Keycloak does at start-up) cannot run on a "
                + "pool of 1: give it spec.targets[0].minPoolSize: 2."));
        assertThat(condition(s, "Ready")).startsWith("True/Reconciled");
        assertThat(condition(s, "Oversubscribed")).startsWith("False/WithinBudget");
        // quiet at 4 per pod
        var roomy = status(policy("db", SPEC), run(policy("db", SPEC), view(web(4))));
        assertThat(roomy.getTargets()).singleElement()
                .satisfies(t -> assertThat(t.getExplanation()).doesNotContain("pool of 1"));
    }

    @Test
    void withinTheBudgetLiveConnectionsAreReportedBesideThePlan() {
        var view = new ClusterView(List.of(web(4)), List.of(), List.of(),
                List.of(pod("web-1", 4, false), pod("web-2", 4, false)), List.of());
        var s = status(policy("db", SPEC), run(policy("db", SPEC), view));
        assertThat(condition(s, "Oversubscribed")).isEqualTo("False/WithinBudget: 16 of 16 connections allocated; "
                + "the pods hold 8 now");
        assertThat(condition(s, "Ready")).startsWith("True/Reconciled");
    }

    @Test
    void withoutObserveReadySaysTheSizesAreDeclaredNotVerified() {
        var view = new ClusterView(List.of(web(4)), List.of(), List.of(),
                List.of(pod("web-1", 4, false), pod("web-2", 4, false)), List.of());
        assertThat(condition(status(policy("db", SPEC), run(policy("db", SPEC), view)), "Ready"))
                .isEqualTo(
                        "True/Reconciled: every target is sized within the budget; the sizes are declared in the pod "
                                + "specs, not verified: set spec.database.observe to compare them with the database's own count "
                                + "(an app that does not read the injected variable keeps its own pool)");
        String observed = SPEC.replace("cores: 8", "cores: 8, observe: {secretName: pg}");
        assertThat(condition(status(policy("db", observed), run(policy("db", observed), view)), "Ready"))
                .isEqualTo("True/Reconciled: every target is sized within the budget");
    }

    @Test
    void aPausedDeploymentSaysSoAndWhatItsPodsHold() {
        Deployment paused = web(4);
        paused.getSpec().setPaused(true);
        paused.getStatus().setUpdatedReplicas(0); // paused before the template with size 4 rolled out
        var result = run(policy("db", SPEC), new ClusterView(List.of(paused), List.of(), List.of(),
                List.of(pod("web-1", 20, false), pod("web-2", 20, false)), List.of()));
        assertThat(result.targets().get(0).state()).isEqualTo(State.Paused);
        assertThat(result.targets().get(0).message())
                .isEqualTo("paused (kubectl rollout pause) before its pods took pool "
                        + "size 4: its pods hold 40 connections, the plan gives it 16; resume it with kubectl rollout resume "
                        + "deployment/web");
        assertThat(condition(status(policy("db", SPEC), result), "Ready"))
                .isEqualTo("False/TargetProblem: Deployment/web (Paused: " + result.targets().get(0).message() + ")");
    }

    @Test
    void aSelectorThatMatchesNothingIsAProblemNotReady() {
        var p = policy("db", SPEC.replace("{name: web}", "{selector: {matchLabels: {tier: wbe}}}"));
        var result = run(p, view(web(null)));
        assertThat(result.targets()).singleElement().satisfies(t -> {
            assertThat(t.state()).isEqualTo(State.NotFound);
            assertThat(t.message()).isEqualTo("spec.targets[0].selector (tier=wbe) matches no Deployment in this "
                    + "namespace: check the labels it selects, or the kind");
        });
        assertThat(condition(status(p, result), "Ready")).isEqualTo("False/TargetProblem: spec.targets[0].selector "
                + "(tier=wbe) matches no Deployment in this namespace: check the labels it selects, or the kind");
    }

    @Test
    void aPoolVariableSetThroughValueFromIsAConflictNotAFailedWrite() {
        Deployment d = web(null);
        d.getSpec().getTemplate().getSpec().getContainers().get(0).setEnv(List.of(new EnvVarBuilder()
                .withName("HIKARI_MAXIMUM_POOL_SIZE").withNewValueFrom().withNewSecretKeyRef("size", "db-pool", false)
                .endValueFrom().build()));
        var writer = new RecordingWriter();
        var result = run(policy("db", SPEC), view(d), writer);
        assertThat(writer.applied).isEmpty();
        assertThat(result.targets().get(0).state()).isEqualTo(State.Conflict);
        assertThat(result.targets().get(0).message())
                .startsWith("container 'app' sets HIKARI_MAXIMUM_POOL_SIZE through "
                        + "valueFrom, which the operator cannot replace");
        assertThat(condition(status(policy("db", SPEC), result), "Conflict"))
                .startsWith("True/Conflict: Deployment/web "
                        + "(Conflict: container 'app' sets HIKARI_MAXIMUM_POOL_SIZE");
    }

    @Test
    void theConditionNamesTheFirstCauseAndCountsTheOthers() {
        var p = policy("db", SPEC.replace("[{name: web}]", "[{name: web}, {name: ghost}, {name: phantom}]"));
        var s = status(p, run(p, view(web(4))));
        assertThat(condition(s, "Ready")).isEqualTo("False/TargetProblem: Deployment/ghost (NotFound: Deployment/ghost "
                + "does not exist in this namespace (named by spec.targets[1].name)) and 1 more (see status.targets)");
    }

    @Test
    void aConflictedWorkloadHoldingMoreThanPlannedHoldsTheOthersRaises() {
        // web is claimed by another policy too and holds 10; api would rise 2 -> 3 but must wait: web cannot shrink
        Deployment api = web(2);
        api.getMetadata().setName("api");
        api.getSpec().getSelector().setMatchLabels(Map.of("app", "api"));
        var spec = SPEC.replace("cores: 8", "cores: 12").replace("[{name: web}]", "[{name: web}, {name: api}]");
        var other = policy("other", SPEC);
        var result = Passes.run(policy("db", spec), view(web(10), api), List.of(other), new RecordingWriter(), NOW,
                Duration.ZERO);
        assertThat(result.targets()).extracting(TargetOutcome::state).containsExactly(State.Conflict, State.Pending);
        assertThat(result.targets().get(1).message())
                .endsWith("Deployment/web (holds 10 per pod, cannot be lowered: Conflict)");
    }

    @Test
    void statusStaysSmallAtFiveThousandTargets() throws Exception {
        List<Deployment> many = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            Deployment d = web(i % 2 == 0 ? null : 1);
            d.getMetadata().setName(String.format("svc-%04d", i));
            many.add(d);
        }
        var p = policy("db", SPEC.replace("cores: 8", "cores: 20000")
                .replace("[{name: web}]", "[{selector: {matchLabels: {tier: web}}}]"));
        var result = Passes.run(p, new ClusterView(many, List.of(), List.of(), List.of(), List.of()), List.of(p),
                new RecordingWriter(), NOW, Duration.ofMinutes(3));
        var s = status(p, result);
        int bytes = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsBytes(s).length;
        System.out.printf("status of a policy with 5,000 targets (2,500 raises held): %,d bytes, %d listed%n", bytes,
                s.getTargets().size());
        assertThat(s.getTargetStates()).containsEntry("Pending", 2500).containsEntry("Rolling", 2500);
        assertThat(s.getTargets()).hasSize(2500).filteredOn(t -> t.getExplanation() != null).hasSize(100);
        assertThat(s.getTargetsOmitted()).isEqualTo(2500);
        assertThat(bytes).as("far below the API server's ~1.5 MB object limit").isLessThan(600_000);
    }
}
