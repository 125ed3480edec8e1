package io.poolbudget.reconciler;

import static io.poolbudget.reconciler.RolloutDecider.Action.APPLY;
import static io.poolbudget.reconciler.RolloutDecider.Action.HOLD_FOR_ROLLOUTS;
import static io.poolbudget.reconciler.RolloutDecider.Action.HOLD_FOR_WINDOW;
import static io.poolbudget.reconciler.RolloutDecider.Action.NONE;
import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.reconciler.RolloutDecider.Decision;
import io.poolbudget.reconciler.RolloutDecider.TargetState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RolloutDeciderTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final Duration WINDOW = Duration.ofMinutes(3);

    private static List<RolloutDecider.Action> actions(List<Decision> decisions) {
        return decisions.stream().map(Decision::action).toList();
    }

    @Test
    void lowerSizesAndFirstSizesApplyAtOnce() {
        var d = RolloutDecider.decide(List.of(new TargetState("a", 3, 5, true, null),
                new TargetState("b", 4, null, true, null)), NOW, WINDOW);
        assertThat(actions(d)).containsExactly(APPLY, APPLY);
    }

    @Test
    void unchangedSizesDoNothing() {
        assertThat(actions(RolloutDecider.decide(List.of(new TargetState("a", 3, 3, false, null)), NOW, WINDOW)))
                .containsExactly(NONE);
    }

    @Test
    void aRaiseFirstWaitsOutTheWindowFromWhenItWasFirstHeld() {
        var first = RolloutDecider.decide(List.of(new TargetState("a", 6, 4, true, null)), NOW, WINDOW);
        assertThat(first.get(0).action()).isEqualTo(HOLD_FOR_WINDOW);
        assertThat(first.get(0).pendingSince()).isEqualTo(NOW);
        assertThat(RolloutDecider.nextCheck(first, NOW, WINDOW)).isEqualTo(WINDOW);

        var later = RolloutDecider.decide(List.of(new TargetState("a", 6, 4, true, NOW)), NOW.plusSeconds(60), WINDOW);
        assertThat(later.get(0).action()).isEqualTo(HOLD_FOR_WINDOW);
        assertThat(later.get(0).pendingSince()).isEqualTo(NOW);
        assertThat(RolloutDecider.nextCheck(later, NOW.plusSeconds(60), WINDOW)).isEqualTo(Duration.ofMinutes(2));

        var after = RolloutDecider.decide(List.of(new TargetState("a", 6, 4, true, NOW)), NOW.plus(WINDOW), WINDOW);
        assertThat(after.get(0).action()).isEqualTo(APPLY);
        assertThat(after.get(0).pendingSince()).isNull();
    }

    @Test
    void growthWaitsForShrinkingTargetsAndAppliesOnceTheyRolledOut() {
        // pass 1: a shrinks (applies), b grows (held although its window is over)
        var pass1 = RolloutDecider.decide(List.of(new TargetState("a", 2, 4, true, null),
                new TargetState("b", 6, 4, true, NOW)), NOW.plus(WINDOW), WINDOW);
        assertThat(actions(pass1)).containsExactly(APPLY, HOLD_FOR_ROLLOUTS);
        assertThat(pass1.get(1).reason()).contains("a (shrinking)");
        // pass 2: a has size 2 now but is still rolling out
        var pass2 = RolloutDecider.decide(List.of(new TargetState("a", 2, 2, false, null),
                new TargetState("b", 6, 4, true, NOW)), NOW.plus(WINDOW), WINDOW);
        assertThat(actions(pass2)).containsExactly(NONE, HOLD_FOR_ROLLOUTS);
        assertThat(pass2.get(1).reason()).contains("a (rolling out)");
        // pass 3: a rolled out
        var pass3 = RolloutDecider.decide(List.of(new TargetState("a", 2, 2, true, null),
                new TargetState("b", 6, 4, true, NOW)), NOW.plus(WINDOW), WINDOW);
        assertThat(actions(pass3)).containsExactly(NONE, APPLY);
    }

    @Test
    void withAZeroWindowPureGrowthAppliesAtOnce() {
        var d = RolloutDecider.decide(List.of(new TargetState("a", 6, 4, true, null),
                new TargetState("b", 5, 3, true, null)), NOW, Duration.ZERO);
        assertThat(actions(d)).containsExactly(APPLY, APPLY);
    }

    @Test
    void aRaiseThatIsNoLongerWantedForgetsItsWindow() {
        var d = RolloutDecider.decide(List.of(new TargetState("a", 4, 4, true, NOW)), NOW.plusSeconds(10), WINDOW);
        assertThat(d.get(0).action()).isEqualTo(NONE);
        assertThat(d.get(0).pendingSince()).isNull();
    }
}
