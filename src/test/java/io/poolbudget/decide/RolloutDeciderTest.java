package io.poolbudget.decide;

import static io.poolbudget.decide.RolloutDecider.Action.APPLY;
import static io.poolbudget.decide.RolloutDecider.Action.HOLD_FOR_ROLLOUTS;
import static io.poolbudget.decide.RolloutDecider.Action.HOLD_FOR_WINDOW;
import static io.poolbudget.decide.RolloutDecider.Action.NONE;
import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.decide.RolloutDecider.Verdict;
import io.poolbudget.decide.RolloutDecider.TargetState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RolloutDeciderTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final Duration WINDOW = Duration.ofMinutes(3);

    /** Pods without our variable hold HikariCP's default of 10. */
    private static TargetState state(String id, int desired, Integer applied, boolean rolledOut, Instant since) {
        return new TargetState(id, desired, applied, rolledOut, since, 10);
    }

    private static List<RolloutDecider.Action> actions(List<Verdict> decisions) {
        return decisions.stream().map(Verdict::action).toList();
    }

    @Test
    void aFirstSizeAboveTheAppDefaultIsARaise() {
        // Found on the cluster: a new Deployment joined a selector with pods at HikariCP's 10; its first size 11 was
        // written at once while the others' old pods still held 22. It must wait like any raise.
        var d = RolloutDecider.decide(List.of(state("abc", 11, 22, true, null), state("new", 11, null, true, null)),
                NOW, Duration.ZERO);
        assertThat(actions(d)).containsExactly(APPLY, HOLD_FOR_ROLLOUTS);
        assertThat(d.get(1).reason()).isEqualTo("first size 11 (the pods hold the app's default 10) waits until these "
                + "finish rolling out: abc (shrinking)");
        var withWindow = RolloutDecider.decide(List.of(state("new", 11, null, true, null)), NOW, WINDOW);
        assertThat(actions(withWindow)).containsExactly(HOLD_FOR_WINDOW);
        var agroal = RolloutDecider.decide(List.of(new TargetState("q", 11, null, true, null, 20)), NOW, WINDOW);
        assertThat(actions(agroal)).as("11 is below Agroal's default of 20: a shrink").containsExactly(APPLY);
    }

    /**
     * A window per target (mode Demand: a size from demand takes none, the others keep theirs): each target decided as
     * with its own window for all, in one decision, and a target without a window still waits for the others' shrinks.
     */
    @Test
    void aWindowPerTargetAppliesToItsTargetOnly() {
        var shrinking = List.of(state("lender", 4, 6, true, null), state("borrower", 6, 4, true, null),
                state("weights", 6, 4, true, null));
        var d = RolloutDecider.decide(shrinking, List.of(), NOW,
                t -> t.id().equals("borrower") ? Duration.ZERO : WINDOW);
        assertThat(actions(d)).containsExactly(APPLY, HOLD_FOR_ROLLOUTS, HOLD_FOR_WINDOW);
        assertThat(d.get(1).reason()).endsWith("waits until these finish rolling out: lender (shrinking)");
        assertThat(d.get(1)).isEqualTo(RolloutDecider.decide(shrinking, NOW, Duration.ZERO).get(1));
        assertThat(d.get(2)).isEqualTo(RolloutDecider.decide(shrinking, NOW, WINDOW).get(2));

        var calm = List.of(state("lender", 4, 4, true, null), state("borrower", 6, 4, true, NOW.minusSeconds(1)),
                state("weights", 6, 4, true, NOW.minusSeconds(1)));
        var later = RolloutDecider.decide(calm, List.of("Deployment/x (rolling out)"), NOW,
                t -> t.id().equals("borrower") ? Duration.ZERO : WINDOW);
        assertThat(actions(later)).containsExactly(NONE, HOLD_FOR_ROLLOUTS, HOLD_FOR_WINDOW);
        assertThat(later.get(2).pendingSince()).as("held since it was first held").isEqualTo(NOW.minusSeconds(1));
        assertThat(actions(RolloutDecider.decide(calm, List.of(), NOW,
                t -> t.id().equals("borrower") ? Duration.ZERO : WINDOW)))
                .containsExactly(NONE, APPLY, HOLD_FOR_WINDOW);
        assertThat(RolloutDecider.nextCheck(later, NOW, WINDOW)).as("only the windowed raise is looked at again")
                .isEqualTo(WINDOW.minusSeconds(1));
    }

    @Test
    void aFirstSizeEqualToTheAppDefaultWaitsForOtherRolloutsButNotForTheWindow() {
        var busy = RolloutDecider.decide(List.of(state("a", 3, 3, false, null), state("b", 10, null, true, null)),
                NOW, WINDOW);
        assertThat(actions(busy)).containsExactly(NONE, HOLD_FOR_ROLLOUTS);
        assertThat(busy.get(1).pendingSince()).as("no window to remember").isNull();
        var calm = RolloutDecider.decide(List.of(state("a", 3, 3, true, null), state("b", 10, null, true, null)),
                NOW, WINDOW);
        assertThat(actions(calm)).containsExactly(NONE, APPLY);
    }

    @Test
    void aWorkloadThatHoldsMoreThanPlannedAndCannotBeWrittenHoldsRaises() {
        var d = RolloutDecider.decide(List.of(state("a", 6, 4, true, null)), List.of("Deployment/x (holds 9)"),
                NOW, Duration.ZERO);
        assertThat(actions(d)).containsExactly(HOLD_FOR_ROLLOUTS);
        assertThat(d.get(0).reason()).endsWith("Deployment/x (holds 9)");
    }

    @Test
    void aLongListOfBlockersIsCutShort() {
        assertThat(RolloutDecider.list(List.of("a", "b", "c", "d", "e", "f", "g")))
                .isEqualTo("a, b, c, d, e and 2 more");
        assertThat(RolloutDecider.list(List.of("a"))).isEqualTo("a");
    }

    @Test
    void lowerSizesAndFirstSizesBelowTheAppDefaultApplyAtOnce() {
        var d = RolloutDecider.decide(List.of(state("a", 3, 5, true, null),
                state("b", 4, null, true, null)), NOW, WINDOW);
        assertThat(actions(d)).containsExactly(APPLY, APPLY);
    }

    @Test
    void unchangedSizesDoNothing() {
        assertThat(actions(RolloutDecider.decide(List.of(state("a", 3, 3, false, null)), NOW, WINDOW)))
                .containsExactly(NONE);
    }

    @Test
    void aRaiseFirstWaitsOutTheWindowFromWhenItWasFirstHeld() {
        var first = RolloutDecider.decide(List.of(state("a", 6, 4, true, null)), NOW, WINDOW);
        assertThat(first.get(0).action()).isEqualTo(HOLD_FOR_WINDOW);
        assertThat(first.get(0).pendingSince()).isEqualTo(NOW);
        assertThat(RolloutDecider.nextCheck(first, NOW, WINDOW)).isEqualTo(WINDOW);

        var later = RolloutDecider.decide(List.of(state("a", 6, 4, true, NOW)), NOW.plusSeconds(60), WINDOW);
        assertThat(later.get(0).action()).isEqualTo(HOLD_FOR_WINDOW);
        assertThat(later.get(0).pendingSince()).isEqualTo(NOW);
        assertThat(RolloutDecider.nextCheck(later, NOW.plusSeconds(60), WINDOW)).isEqualTo(Duration.ofMinutes(2));

        var after = RolloutDecider.decide(List.of(state("a", 6, 4, true, NOW)), NOW.plus(WINDOW), WINDOW);
        assertThat(after.get(0).action()).isEqualTo(APPLY);
        assertThat(after.get(0).pendingSince()).isNull();
    }

    @Test
    void growthWaitsForShrinkingTargetsAndAppliesOnceTheyRolledOut() {
        // pass 1: a shrinks (applies), b grows (held although its window is over)
        var pass1 = RolloutDecider.decide(List.of(state("a", 2, 4, true, null),
                state("b", 6, 4, true, NOW)), NOW.plus(WINDOW), WINDOW);
        assertThat(actions(pass1)).containsExactly(APPLY, HOLD_FOR_ROLLOUTS);
        assertThat(pass1.get(1).reason()).contains("a (shrinking)");
        // pass 2: a has size 2 now but is still rolling out
        var pass2 = RolloutDecider.decide(List.of(state("a", 2, 2, false, null),
                state("b", 6, 4, true, NOW)), NOW.plus(WINDOW), WINDOW);
        assertThat(actions(pass2)).containsExactly(NONE, HOLD_FOR_ROLLOUTS);
        assertThat(pass2.get(1).reason()).contains("a (rolling out)");
        // pass 3: a rolled out
        var pass3 = RolloutDecider.decide(List.of(state("a", 2, 2, true, null),
                state("b", 6, 4, true, NOW)), NOW.plus(WINDOW), WINDOW);
        assertThat(actions(pass3)).containsExactly(NONE, APPLY);
    }

    @Test
    void withAZeroWindowPureGrowthAppliesAtOnce() {
        var d = RolloutDecider.decide(List.of(state("a", 6, 4, true, null),
                state("b", 5, 3, true, null)), NOW, Duration.ZERO);
        assertThat(actions(d)).containsExactly(APPLY, APPLY);
    }

    @Test
    void aRaiseThatIsNoLongerWantedForgetsItsWindow() {
        var d = RolloutDecider.decide(List.of(state("a", 4, 4, true, NOW)), NOW.plusSeconds(10), WINDOW);
        assertThat(d.get(0).action()).isEqualTo(NONE);
        assertThat(d.get(0).pendingSince()).isNull();
    }

    /** A target whose rollout to {@code applied} is stalled while its running pods hold {@code running}. */
    private static TargetState stalled(String id, int desired, int applied, int running, Instant since) {
        return new TargetState(id, desired, applied, false, since, 10, true, running);
    }

    @Test
    void aStalledTargetGoingBackToWhatItsRunningPodsHoldAppliesAtOnce() {
        // issue 41: Keycloak at 3 replicas cannot start on 1; its old pods hold 2. Back at 2 it waited out the window,
        // then for its own rollout (the one only it could end), for ever.
        var d = RolloutDecider.decide(List.of(stalled("kc", 2, 1, 2, null)), NOW, WINDOW);
        assertThat(actions(d)).containsExactly(APPLY);
        assertThat(d.get(0).pendingSince()).as("no window").isNull();
        assertThat(d.get(0).reason())
                .isEqualTo("raise 1 → 2 goes back toward the 2 its running pods hold, so it adds no "
                        + "connections, and only a write can end its stalled rollout: applies now");
        // two stalled targets do not wait for each other either
        assertThat(actions(RolloutDecider.decide(List.of(stalled("a", 2, 1, 2, null), stalled("b", 3, 1, 3, null)),
                NOW, WINDOW))).containsExactly(APPLY, APPLY);
        // nor for a target that is rolling out within its plan
        assertThat(actions(RolloutDecider.decide(List.of(stalled("kc", 2, 1, 2, null), state("web", 4, 4, false, null)),
                NOW, WINDOW))).containsExactly(APPLY, NONE);
    }

    @Test
    void aStalledTargetGoingBackWaitsOnlyForTargetsThatHoldMoreThanTheirPlan() {
        // web shrinks 6 -> 4: its pods hold more than the plan gives it until it has rolled out
        var shrinking = RolloutDecider.decide(List.of(stalled("kc", 2, 1, 2, null), state("web", 4, 6, true, null)),
                NOW, WINDOW);
        assertThat(actions(shrinking)).containsExactly(HOLD_FOR_ROLLOUTS, APPLY);
        assertThat(shrinking.get(0).pendingSince()).isNull();
        assertThat(shrinking.get(0).reason())
                .endsWith("it waits until these hold no more than planned: web (shrinking)");
        // written at 4 but its old pods still hold 6
        var rolling = RolloutDecider.decide(List.of(stalled("kc", 2, 1, 2, null),
                new TargetState("web", 4, 4, false, null, 10, false, 6)), NOW, WINDOW);
        assertThat(actions(rolling)).containsExactly(HOLD_FOR_ROLLOUTS, NONE);
        assertThat(rolling.get(0).reason()).endsWith("web (rolling out)");
        // and for what holds more outside the policy's targets (a conflict)
        assertThat(
                actions(RolloutDecider.decide(List.of(stalled("kc", 2, 1, 2, null)), List.of("Deployment/x (holds 9)"),
                        NOW, WINDOW)))
                .containsExactly(HOLD_FOR_ROLLOUTS);
    }

    @Test
    void aStalledTargetsRaisePastWhatItsPodsHoldWaitsTheWindowButNeverForItself() {
        var held = RolloutDecider.decide(List.of(stalled("kc", 3, 1, 2, null)), NOW, WINDOW);
        assertThat(actions(held)).containsExactly(HOLD_FOR_WINDOW);
        var after = RolloutDecider.decide(List.of(stalled("kc", 3, 1, 2, NOW)), NOW.plus(WINDOW), WINDOW);
        assertThat(actions(after)).as("its own stall is not a rollout to wait for").containsExactly(APPLY);
        assertThat(after.get(0).step()).isNull();
    }

    @Test
    void whatTheRunningPodsHoldIsWrittenAtOnceAndTheRestAfterTheWindow() {
        // issue 53, found 3: Keycloak stalled at 1, its old pods at 2; the budget back, the plan gives 3
        var d = RolloutDecider.decide(List.of(stalled("kc", 3, 1, 2, null)), NOW, WINDOW);
        assertThat(d.get(0).step()).isEqualTo(2);
        assertThat(d.get(0).pendingSince()).as("the rest's window").isEqualTo(NOW);
        assertThat(d.get(0).reason()).isEqualTo("raise 1 → 3: its running pods hold 2 already, so 2 adds no "
                + "connections and is written now; the rest, 2 → 3, waits for the stabilisation window until "
                + "2026-01-01T10:03:00Z");
        assertThat(RolloutDecider.nextCheck(d, NOW, WINDOW)).isEqualTo(WINDOW);
        // the window over, but another target rolling out within its plan: the step goes, the rest waits for it
        var busy = RolloutDecider.decide(List.of(stalled("kc", 3, 1, 2, NOW), state("web", 4, 4, false, null)),
                NOW.plus(WINDOW), WINDOW);
        assertThat(actions(busy)).containsExactly(HOLD_FOR_ROLLOUTS, NONE);
        assertThat(busy.get(0).step()).isEqualTo(2);
        assertThat(busy.get(0).reason()).endsWith("the rest, 2 → 3, waits until these finish rolling out: web "
                + "(rolling out)");
        // a shrink still rolling out (not stalled): its old pods hold 4, the plan gives 6 now
        var shrinking = RolloutDecider.decide(List.of(new TargetState("web", 6, 2, false, null, 10, false, 4)),
                NOW, WINDOW);
        assertThat(shrinking.get(0).step()).isEqualTo(4);
        // ... or exactly what they hold: the whole raise adds no connections
        var back = RolloutDecider.decide(List.of(new TargetState("web", 4, 2, false, null, 10, false, 4)), NOW,
                WINDOW);
        assertThat(actions(back)).containsExactly(APPLY);
        assertThat(back.get(0).reason()).isEqualTo("raise 2 → 4: its running pods hold 4 already, so 4 adds no "
                + "connections: applies now");
    }

    @Test
    void noStepWhereItWouldAddConnectionsOrOthersHoldMoreThanPlanned() {
        // its pods hold what it carries: any raise adds connections
        assertThat(RolloutDecider.decide(List.of(state("a", 6, 4, true, null)), NOW, WINDOW).get(0).step())
                .isNull();
        // its old pods hold more than the new plan (a shrink rolling out): a step below them leaves them over its plan
        assertThat(RolloutDecider.decide(List.of(new TargetState("a", 5, 2, false, null, 10, false, 6)), NOW, WINDOW)
                .get(0).step()).isNull();
        // another target shrinks, or holds more than planned outside the targets: its connections are not free yet
        var shrinking = RolloutDecider.decide(List.of(stalled("kc", 3, 1, 2, null), state("web", 4, 6, true, null)),
                NOW, WINDOW);
        assertThat(actions(shrinking)).containsExactly(HOLD_FOR_WINDOW, APPLY);
        assertThat(shrinking.get(0).step()).isNull();
        assertThat(RolloutDecider.decide(List.of(stalled("kc", 3, 1, 2, null)), List.of("Deployment/x (holds 9)"), NOW,
                WINDOW).get(0).step()).isNull();
    }

    @Test
    void otherRaisesStillWaitForAStalledRollout() {
        var d = RolloutDecider.decide(List.of(new TargetState("a", 3, 3, false, null, 10, true, 6),
                state("b", 6, 4, true, NOW)), NOW.plus(WINDOW), WINDOW);
        assertThat(actions(d)).containsExactly(NONE, HOLD_FOR_ROLLOUTS);
        assertThat(d.get(1).reason()).endsWith("a (its rollout is not progressing)");
    }
}
