package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a lower pool size may hold while it rolls out (issue 53, item 4). */
class TransitionTest {

    private static Allocation allocate(long budget, TargetInput... targets) {
        return PoolSizer.allocate(new DatabaseInput(null, 0, 2, null, 0, (int) budget), List.of(targets));
    }

    /**
     * Keycloak on the real node: 2 replicas (25% / 25%: 1 surge pod, none unavailable) at pool 2, the budget cut to 4
     * (peak pods 2 + 1 + 1, so pool 1). PostgreSQL saw 5 of 4 for about 2 minutes: the 2 old pods at 2 beside the
     * surge pod at 1. Where an old pod still shuts down as its replacement opens its pool (the plan's terminating
     * allowance, one step) it is 6.
     */
    @Test
    void keycloaksCutPeaksAtFiveOrSixOfFour() {
        var keycloak = TargetInput.builder("Deployment/keycloak").field("spec.targets[0]").replicas(2).build();
        var a = allocate(4, keycloak);
        assertThat(a.target("Deployment/keycloak").poolSize()).isEqualTo(1);

        var t = Transition.of(keycloak, 2, 1);
        assertThat(t.noOverlap()).as("the 2 old pods at 2 beside the surge pod at 1, as measured").isEqualTo(5);
        assertThat(t.peak()).isEqualTo(6);
        assertThat(t.now()).isEqualTo(4);

        var notes = TransitionPeaks.of(a, List.of(new TransitionPeaks.Change("Deployment/keycloak", 2, 1,
                TransitionPeaks.Live.OFFER)), Map.of("Deployment/keycloak", 4L));
        assertThat(notes).containsOnlyKeys("Deployment/keycloak");
        var note = notes.get("Deployment/keycloak");
        assertThat(note.peak()).isEqualTo(6);
        assertThat(note.noOverlap()).isEqualTo(5);
        assertThat(note.text()).isEqualTo("lowering Deployment/keycloak 2 → 1 by a rolling update may hold up to 6 "
                + "of the budget's 4 connections while it rolls: 2 old pods at pool 2, 1 of them shutting down, beside "
                + "2 new at pool 1 (1 surge pod, 1 replacement); 5 where each old pod closes its pool before its "
                + "replacement opens one. To avoid it: spec.injection.resize: Live lowers its running pods' pools in place, with "
                + "no new pods; or maxSurge: 0 on it (maxUnavailable 1) avoids the surge pods: up to 5, 4 where each "
                + "old pod closes its pool first (pool 1)");
    }

    /** The same cut with maxSurge 0 where the budget leaves room for a replacement beside the pod it replaces. */
    @Test
    void withoutASurgeTheSameCutStaysWithinTheBudget() {
        var noSurge = new Rollout.RollingUpdate(IntOrPercent.of(0), IntOrPercent.of(1));
        var keycloak = TargetInput.builder("Deployment/keycloak").replicas(2).rollout(noSurge).build();
        var a = allocate(5, keycloak); // peak pods 2 + 0 + 1: pool 1
        assertThat(a.target("Deployment/keycloak").poolSize()).isEqualTo(1);
        var t = Transition.of(keycloak, 2, 1);
        assertThat(t.peak()).as("one old pod shutting down beside its replacement").isEqualTo(5);
        assertThat(t.noOverlap()).as("no pod beside the old ones").isEqualTo(4);
        assertThat(TransitionPeaks.of(a, List.of(new TransitionPeaks.Change("Deployment/keycloak", 2, 1,
                TransitionPeaks.Live.OFFER)), Map.of())).isEmpty();

        // with the default 25% surge the same budget is passed: 2 × 2 + 2 × 1 = 6 of 5
        var surging = TargetInput.builder("Deployment/keycloak").replicas(2).build();
        var notes = TransitionPeaks.of(allocate(5, surging), List.of(new TransitionPeaks.Change("Deployment/keycloak",
                2, 1, TransitionPeaks.Live.NONE)), Map.of());
        assertThat(notes.get("Deployment/keycloak").text()).contains("may hold up to 6 of the budget's 5")
                .endsWith("maxSurge: 0 on it (maxUnavailable 1) keeps it within the budget: up to 5 (pool 1)");
    }

    /** A percentage maxSurge rounds up, maxUnavailable down, as Kubernetes resolves them. */
    @Test
    void aPercentageSurgeRoundsUp() {
        // 10 replicas at 25%: surge 3 (2.5 up), unavailable 2 (2.5 down); one step (5) terminating
        var ten = TargetInput.builder("d").replicas(10).build();
        var t = Transition.of(ten, 4, 2);
        assertThat(t.noOverlap()).isEqualTo(10 * 4 + 3 * 2);
        assertThat(t.peak()).isEqualTo(10 * 4 + 8 * 2);
        // 3 replicas at 10%: surge 1 (0.3 up), unavailable 0
        var three = TargetInput.builder("d").replicas(3)
                .rollout(new Rollout.RollingUpdate(IntOrPercent.percent(10), IntOrPercent.percent(10))).build();
        assertThat(Transition.of(three, 4, 2).noOverlap()).isEqualTo(3 * 4 + 2);
    }

    @Test
    void aPodReplacedOnlyOnceItIsGoneHoldsNoMoreThanBefore() {
        for (Rollout r : new Rollout[]{new Rollout.Recreate(), new Rollout.Ordered()}) {
            var t = Transition.of(TargetInput.builder("s").replicas(3).rollout(r).build(), 5, 2);
            assertThat(t.peak()).as(r.toString()).isEqualTo(15).isEqualTo(t.now());
            assertThat(t.noOverlap()).isEqualTo(15);
        }
    }

    @Test
    void argoRolloutsRunTheNewPodsBesideTheOld() {
        var blueGreen = TargetInput.builder("Rollout/b").replicas(3).rollout(new BlueGreen(null, 30)).build();
        assertThat(Transition.of(blueGreen, 4, 1).peak()).isEqualTo(3 * 4 + 3);
        var routed = TargetInput.builder("Rollout/c").replicas(4).rollout(new Canary(IntOrPercent.percent(25),
                IntOrPercent.percent(25), true, false, List.of(25, 50), 0, 0, 30)).build();
        assertThat(Transition.of(routed, 4, 1).peak()).as("every stable pod beside the promoted canary")
                .isEqualTo(4 * 4 + 4);
        // dynamicStableScale: 1 canary beside 4 stable, 2 beside 3, 4 beside 2
        var dynamic = TargetInput.builder("Rollout/c").replicas(4).rollout(new Canary(IntOrPercent.percent(25),
                IntOrPercent.percent(25), true, true, List.of(25, 50), 0, 0, 30)).build();
        var t = Transition.of(dynamic, 4, 1);
        assertThat(t.peak()).isEqualTo(4 * 4 + 1);
        assertThat(t.at()).isEqualTo(new Transition.Mix(4, 0, 1, 1));
        // without traffic routing a canary rolls as a Deployment does
        var basic = TargetInput.builder("Rollout/c").replicas(2).rollout(new Canary(IntOrPercent.percent(25),
                IntOrPercent.percent(25), false, false, List.of(50), 0, 0, 30)).build();
        assertThat(Transition.of(basic, 2, 1).peak()).isEqualTo(6);
    }

    @Test
    void poolsPerPodMultiplyEveryPod() {
        var t = Transition.of(TargetInput.builder("d").replicas(2).poolsPerPod(2).build(), 2, 1);
        assertThat(t.peak()).isEqualTo(12);
        assertThat(t.now()).isEqualTo(8);
    }

    /** The other targets count at what they hold now; a note only where the whole policy passes its budget. */
    @Test
    void theOtherTargetsCountAtWhatTheyHold() {
        var web = TargetInput.builder("Deployment/web").replicas(2).build();
        var worker = TargetInput.builder("Deployment/worker").replicas(2).build();
        var a = allocate(8, web, worker); // 4 peak pods each: pool 1 each
        var change = List.of(new TransitionPeaks.Change("Deployment/web", 2, 1, TransitionPeaks.Live.NONE));
        // web: 2 × 2 + 2 × 1 = 6; worker holds 2 (its raise waits): 8 of 8
        assertThat(TransitionPeaks.of(a, change, Map.of("Deployment/worker", 2L))).isEmpty();
        var notes = TransitionPeaks.of(a, change, Map.of("Deployment/worker", 3L));
        assertThat(notes.get("Deployment/web").text()).startsWith("lowering Deployment/web 2 → 1 by a rolling update "
                + "may hold up to 9 of the budget's 8 connections while it rolls, 6 of them its own beside the 3 the "
                + "other targets hold: ");
        // a raise is no lowering: its pods keep what they hold
        assertThat(TransitionPeaks.of(a, List.of(new TransitionPeaks.Change("Deployment/web", 1, 2,
                TransitionPeaks.Live.NONE)), Map.of("Deployment/web", 2L, "Deployment/worker", 3L))).isEmpty();
    }

    @Test
    void whatAvoidsItIsNamedForTheTargetsThatHaveIt() {
        var blueGreen = TargetInput.builder("Rollout/b").replicas(2).rollout(new BlueGreen(null, 30)).build();
        var a = allocate(6, blueGreen); // 6 peak pods: pool 1
        var text = TransitionPeaks.of(a, List.of(new TransitionPeaks.Change("Rollout/b", 3, 1,
                TransitionPeaks.Live.NONE)), Map.of()).get("Rollout/b").text();
        assertThat(text).isEqualTo("lowering Rollout/b 3 → 1 by an Argo Rollouts blue-green rollout may hold up to 8 "
                + "of the budget's 6 connections while it rolls: 2 active pods at pool 3 beside 2 preview pods at "
                + "pool 1, until scaleDownDelaySeconds 30 after the switch");
        var web = TargetInput.builder("Deployment/web").replicas(2).build();
        assertThat(TransitionPeaks.of(allocate(4, web), List.of(new TransitionPeaks.Change("Deployment/web", 2, 1,
                TransitionPeaks.Live.AGENT_COMING)), Map.of()).get("Deployment/web").text()).contains(". To avoid it: "
                        + "resize: Live takes its later sizes in place, and this rollout adds its agent; or maxSurge: 0");
    }
}
