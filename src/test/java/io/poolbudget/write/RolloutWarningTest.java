package io.poolbudget.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.decide.TargetOutcome;
import io.poolbudget.decide.TargetOutcome.State;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 53, item 4: one Warning when a lower size whose rollout may pass the budget is written, in the status' words. */
class RolloutWarningTest {

    private static TargetOutcome written(String name, String transition) {
        var o = new TargetOutcome("Deployment", name, null, null, 1, State.Rolling, "lower size 2 → 1 applies at once",
                null, true, null);
        return transition == null ? o : o.withTransition(transition);
    }

    @Test
    void theWriteOfARolloutThatMayPassTheBudgetWarnsOnce() {
        assertThat(PolicyEvents.transitionWarning(List.of(written("a", null)))).isNull();
        assertThat(PolicyEvents.transitionWarning(List.of(written("a", null), written("kc", "lowering Deployment/kc 2 "
                + "→ 1 by a rolling update may hold up to 6 of the budget's 4 connections while it rolls"))))
                .isEqualTo("lowering Deployment/kc 2 → 1 by a rolling update may hold up to 6 of the budget's 4 "
                        + "connections while it rolls");
        assertThat(PolicyEvents.transitionWarning(List.of(written("a", "one"), written("b", "two"))))
                .isEqualTo("one (and 1 more written in this pass: see status.targets)");
        // the Normal PoolSizeApplied Event keeps its own words: the prediction goes into the Warning
        assertThat(written("kc", "a prediction").messageAlone()).isEqualTo("lower size 2 → 1 applies at once");
    }
}
