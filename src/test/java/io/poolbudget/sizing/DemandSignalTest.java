package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class DemandSignalTest {

    /** After a blip to 2, a demand of 1 is 1 again within about 3.3 half-lives (1/2^3.3 < 0.1), not 30. */
    @Test
    void aDecayWithinATenthOfAConnectionSettlesOnTheSample() {
        assertThat(DemandSignal.smooth(2.0, 1.0, 90, 30)).isCloseTo(1.125, within(1e-12)); // 3 half-lives: not yet
        assertThat(DemandSignal.smooth(2.0, 1.0, 100, 30)).isEqualTo(1.0); // 0.099 above: settled
        assertThat(DemandSignal.smooth(1.05, 1.0, 0, 30)).isEqualTo(1.0);
    }

    @Test
    void theFirstSampleIsTakenAsItIs() {
        assertThat(DemandSignal.smooth(null, 3.5, 10, 60)).isEqualTo(3.5);
    }

    @Test
    void aHigherSampleIsTakenAtOnce() {
        assertThat(DemandSignal.smooth(4.0, 9.0, 0.5, 60)).isEqualTo(9.0);
        assertThat(DemandSignal.smooth(4.0, 4.0, 10, 60)).isEqualTo(4.0);
    }

    @Test
    void aLowerSampleIsApproachedHalfWayEachHalfLife() {
        assertThat(DemandSignal.smooth(10.0, 2.0, 30, 30)).isCloseTo(6.0, within(1e-12));
        assertThat(DemandSignal.smooth(10.0, 2.0, 60, 30)).isCloseTo(4.0, within(1e-12));
        assertThat(DemandSignal.smooth(10.0, 2.0, 0, 30)).isEqualTo(10.0);
        assertThat(DemandSignal.smooth(10.0, 0.0, 3000, 30)).isEqualTo(0.0);
    }

    @Test
    void badInputNamesWhatIsWrong() {
        assertThatThrownBy(() -> DemandSignal.smooth(Double.NaN, 1, 1, 1)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("previous demand");
        assertThatThrownBy(() -> DemandSignal.smooth(1.0, -1, 1, 1)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("demand sample");
        assertThatThrownBy(() -> DemandSignal.smooth(1.0, Double.NaN, 1, 1)).hasMessageContaining("demand sample");
        assertThatThrownBy(() -> DemandSignal.smooth(1.0, 1, -5, 1)).hasMessageContaining("elapsed seconds");
        assertThatThrownBy(() -> DemandSignal.smooth(1.0, 1, 1, 0)).hasMessageContaining("demand half-life");
        assertThatThrownBy(() -> DemandSignal.smooth(1.0, 1, 1, Double.NaN)).hasMessageContaining("half-life");
    }
}
