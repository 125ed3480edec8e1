package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class KneeTest {
    @Test
    void theFewestConnectionsWithinFivePercentOfTheBest() {
        // the shape measured here with pgbench: rises to 8, flat, then falls with queueing
        var sweep = List.of(new Knee.Point(1, 900, 1.2), new Knee.Point(2, 1700, 1.3), new Knee.Point(4, 3350, 1.5),
                new Knee.Point(8, 4193, 2.4), new Knee.Point(16, 4100, 5.0), new Knee.Point(64, 2900, 40),
                new Knee.Point(256, 1720, 190));
        assertThat(Knee.of(sweep, 0.05).connections()).isEqualTo(8);
        assertThat(Knee.of(sweep, 0.25).connections()).isEqualTo(4);
        assertThat(Knee.best(sweep).connections()).isEqualTo(8);
        assertThatThrownBy(() -> Knee.of(List.of(), 0.05)).isInstanceOf(IllegalArgumentException.class);
    }

    @Property
    void theKneeIsWithinToleranceOfTheBestAndNoSmallerLevelIs(
            @ForAll @Size(min = 1, max = 20) List<@DoubleRange(min = 1, max = 10_000) Double> tps) {
        List<Knee.Point> sweep = new ArrayList<>();
        for (int i = 0; i < tps.size(); i++) {
            sweep.add(new Knee.Point(i + 1, tps.get(i), 1));
        }
        var knee = Knee.of(sweep, 0.05);
        double best = Knee.best(sweep).tps();
        assertThat(knee.tps()).isGreaterThanOrEqualTo(best * 0.95);
        assertThat(sweep.stream().filter(p -> p.connections() < knee.connections()))
                .allMatch(p -> p.tps() < best * 0.95);
    }
}
