package io.poolbudget.decide;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.decide.DemandState.Lend;
import io.poolbudget.decide.DemandState.Track;
import org.junit.jupiter.api.Test;

/** The lending hold's transitions, pure: nominal 10, a period of 10 s. */
class LendingHoldTest {
    private static final long P = 10_000;

    private static Track at(int size, Lend lend) {
        return new Track(1.0, 0, size, 0, 0, null, 1, lend);
    }

    @Test
    void lendingBeginsIsRemembered() {
        var lend = LendingHold.next(at(10, Lend.NONE), 10, 10, 6, 5 * P, P);
        assertThat(lend).isEqualTo(new Lend(5 * P, 0, 0));
        assertThat(LendingHold.holds(at(6, lend), 6 * P)).isFalse();
    }

    @Test
    void takingBackSoonHoldsForAPeriodThenTwiceAsLongEachTime() {
        var first = LendingHold.next(at(6, new Lend(5 * P, 0, 0)), 10, 6, 10, 8 * P, P);
        assertThat(first).isEqualTo(new Lend(5 * P, 9 * P, P));
        assertThat(LendingHold.holds(at(10, first), 8 * P + 1)).isTrue();
        assertThat(LendingHold.holds(at(10, first), 9 * P)).as("the pass a period later").isTrue();
        assertThat(LendingHold.holds(at(10, first), 9 * P + 1)).isFalse();
        var lentAgain = LendingHold.next(at(10, first), 10, 10, 6, 9 * P, P);
        var second = LendingHold.next(at(6, lentAgain), 10, 6, 8, 11 * P, P);
        assertThat(second.holdMs()).as("a partial take-back counts too").isEqualTo(2 * P);
        assertThat(second.holdUntilMs()).isEqualTo(13 * P);
        var many = new Lend(100 * P, 0, 16 * LendingHold.MOST_PERIODS * P);
        assertThat(LendingHold.next(at(6, many), 10, 6, 10, 101 * P, P).holdMs()).as("at most")
                .isEqualTo(LendingHold.MOST_PERIODS * P);
    }

    @Test
    void takingBackAfterLendingLongStartsAgainWithNoHold() {
        var lend = new Lend(5 * P, 0, 8 * P);
        var back = LendingHold.next(at(6, lend), 10, 6, 10, (5 + LendingHold.SOON_PERIODS) * P, P);
        assertThat(back.holdUntilMs()).isZero();
        assertThat(back.holdMs()).isZero();
    }

    @Test
    void aBorrowerShrinkingToItsNominalIsNoTakeBack() {
        var lend = new Lend(5 * P, 0, 0);
        assertThat(LendingHold.next(at(14, lend), 10, 14, 10, 6 * P, P)).isEqualTo(lend);
        assertThat(LendingHold.next(at(10, lend), 10, 10, 12, 6 * P, P)).isEqualTo(lend);
        assertThat(LendingHold.holds(null, 0)).isFalse();
    }
}
