package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class DemandSignalTest {

    /** After a blip to 2, a demand of 1 is 1 again just past one half-life (within half a connection), not 30. */
    @Test
    void aDecayWithinHalfAConnectionSettlesOnTheSample() {
        assertThat(DemandSignal.smooth(2.0, 1.0, 30, 30)).isCloseTo(1.5, within(1e-12)); // one half-life: not yet
        assertThat(DemandSignal.smooth(2.0, 1.0, 31, 30)).isEqualTo(1.0); // 0.489 above: settled
        assertThat(DemandSignal.smooth(1.45, 1.0, 0, 30)).isEqualTo(1.0);
        assertThat(DemandSignal.smooth(10.0, 4.0, 30, 30)).isCloseTo(7.0, within(1e-12)); // far above: decays
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
