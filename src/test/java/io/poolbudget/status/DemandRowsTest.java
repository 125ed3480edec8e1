package io.poolbudget.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.decide.DemandStep;
import io.poolbudget.sizing.DatabaseInput;
import io.poolbudget.sizing.PoolSizer;
import io.poolbudget.sizing.Rollout;
import io.poolbudget.sizing.TargetAllocation;
import io.poolbudget.sizing.TargetInput;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The plan's words for a target's size, by weights or moved by demand (two targets of 2 pods, budget 40: 10 each). */
class DemandRowsTest {
    private static final TargetAllocation NOMINAL = PoolSizer.allocate(new DatabaseInput(1, 0, 2, null, 0, 40),
            List.of(TargetInput.builder("Deployment/a").replicas(2).rollout(new Rollout.Recreate()).build(),
                    TargetInput.builder("Deployment/b").replicas(2).rollout(new Rollout.Recreate()).build()))
            .target("Deployment/a");

    @Test
    void aSizeAtItsNominalIsSaidAsThePlanSaysIt() {
        assertThat(DemandRows.sizeWords(NOMINAL, null)).isEqualTo(NOMINAL.explanation());
        var row = new DemandStep.Row(8, "agent", 10, 10, null, "nominal 10: demand 8 per pod fits it");
        assertThat(DemandRows.sizeWords(NOMINAL, row)).isEqualTo(NOMINAL.explanation());
    }

    @Test
    void aSizeMovedByDemandIsSaidAtItsNominalThenWhatDemandMadeOfIt() {
        var moved = new TargetAllocation(NOMINAL.peak(), 15, NOMINAL.fairShare(), NOMINAL.oversubscribed(),
                NOMINAL.fit(), NOMINAL.strategyCost());
        var row = new DemandStep.Row(16, "agent", 10, 15, null, "borrows 5 above nominal 10");
        assertThat(DemandRows.sizeWords(moved, row)).isEqualTo(NOMINAL.explanation()
                + "; by demand: pool size 15 (borrows 5 above nominal 10), 15 × 2 peak pods × 1 pools per pod = 30 "
                + "connections");
        assertThat(NOMINAL.explanation()).as("the nominal words are not the moved ones").isNotEqualTo(
                moved.explanation());
    }
}
