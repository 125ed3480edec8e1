package io.poolbudget.planning;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.planning.TerminatingMarks.Mark;
import io.poolbudget.planning.TerminatingMarks.Overlap;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class TerminatingMarksTest {

    @Test
    void aRolloutKeepsTheMostOfItsOldPodsSeenTerminatingAtOnce() {
        var marks = TerminatingMarks.update(List.of(), new Overlap("a", 1));
        marks = TerminatingMarks.update(marks, new Overlap("a", 3));
        marks = TerminatingMarks.update(marks, new Overlap("a", 2));
        assertThat(marks).containsExactly(new Mark("a", 3));
        assertThat(TerminatingMarks.most(marks)).isEqualTo(3);
    }

    @Test
    void passesWithoutOldPodsTerminatingChangeNothing() {
        var marks = List.of(new Mark("a", 3));
        assertThat(TerminatingMarks.update(marks, new Overlap("b", 0))).isEqualTo(marks);
        assertThat(TerminatingMarks.update(marks, null)).isEqualTo(marks);
        assertThat(TerminatingMarks.most(List.of())).isZero();
    }

    @Test
    void aSlowRolloutIsForgottenAfterThreeLaterRolloutsThatDoNotRepeatIt() {
        var marks = TerminatingMarks.update(List.of(), new Overlap("slow", 4));
        for (String r : List.of("r1", "r2")) {
            marks = TerminatingMarks.update(marks, new Overlap(r, 1));
            assertThat(TerminatingMarks.most(marks)).as("after rollout " + r).isEqualTo(4);
        }
        marks = TerminatingMarks.update(marks, new Overlap("r3", 1));
        assertThat(marks).extracting(Mark::revision).containsExactly("r1", "r2", "r3");
        assertThat(TerminatingMarks.most(marks)).isEqualTo(1);
    }

    @Test
    void anUndoToARememberedRevisionRaisesItsMarkInPlace() {
        var marks = List.of(new Mark("a", 1), new Mark("b", 1));
        assertThat(TerminatingMarks.update(marks, new Overlap("a", 2))).containsExactly(new Mark("a", 2),
                new Mark("b", 1));
    }

    @Test
    void aMarkLapsesADayAfterItWasSeenWhetherOrNotLaterRolloutsCome() {
        Instant nine = Instant.parse("2026-01-01T09:00:00.250Z");
        var marks = TerminatingMarks.update(List.of(), new Overlap("slow", 4), nine);
        assertThat(marks).as("seen at the second, as status says it")
                .containsExactly(new Mark("slow", 4, Instant.parse("2026-01-01T09:00:00Z")));
        assertThat(TerminatingMarks.update(marks, null, nine.plus(Duration.ofHours(23)))).isEqualTo(marks);
        assertThat(TerminatingMarks.update(marks, null, nine.plus(TerminatingMarks.LASTS))).isEmpty();
        assertThat(TerminatingMarks.update(marks, null, null)).as("without a clock (plan): by rollouts only")
                .isEqualTo(marks);
    }

    @Test
    void aMarkReadWithoutATimeIsTakenAsSeenNowOnceAndARaiseIsSeenAgain() {
        Instant at = Instant.parse("2026-01-01T09:00:00Z");
        var stamped = TerminatingMarks.update(List.of(new Mark("a", 2)), null, at);
        assertThat(stamped).containsExactly(new Mark("a", 2, at));
        assertThat(TerminatingMarks.update(stamped, new Overlap("a", 1), at.plusSeconds(60)))
                .as("not raised: as it was")
                .isEqualTo(stamped);
        assertThat(TerminatingMarks.update(stamped, new Overlap("a", 3), at.plusSeconds(60)))
                .containsExactly(new Mark("a", 3, at.plusSeconds(60)));
    }

    /** The plan never allows for fewer than the pods it sees now, and remembers no more than three rollouts. */
    @Property
    void theMarksCoverWhatTerminatesNowAndStayBounded(
            @ForAll @Size(max = 12) List<@IntRange(max = 5) Integer> revisions,
            @ForAll @Size(max = 12) List<@IntRange(max = 50) Integer> counts) {
        List<Mark> marks = List.of();
        List<Overlap> seen = new ArrayList<>();
        for (int i = 0; i < Math.min(revisions.size(), counts.size()); i++) {
            var now = new Overlap("r" + revisions.get(i), counts.get(i));
            marks = TerminatingMarks.update(marks, now);
            seen.add(now);
            assertThat(TerminatingMarks.most(marks)).isGreaterThanOrEqualTo(now.oldTerminating());
            assertThat(marks).hasSizeLessThanOrEqualTo(TerminatingMarks.REMEMBERED);
            assertThat(marks).extracting(Mark::revision).doesNotHaveDuplicates();
            assertThat(TerminatingMarks.most(marks))
                    .isLessThanOrEqualTo(seen.stream().mapToLong(Overlap::oldTerminating)
                            .max().orElse(0));
        }
    }
}
