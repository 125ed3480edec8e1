package io.poolbudget.decide;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.decide.RolloutDecider.Action;
import io.poolbudget.decide.RolloutDecider.TargetState;
import io.poolbudget.decide.RolloutDecider.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The part of a held raise written at once (issue 53, found 3): never above the plan, never at or below the size
 * written, never more than a running pod holds; and with it the policy's worst moment stays within its budget: every
 * pod of every target, old or new, at the most it may hold once the pass's writes are out.
 */
class RaiseStepPropertiesTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final Duration WINDOW = Duration.ofMinutes(3);

    /** A target and what the plan counts for it: peak pods × pool size × pools per pod. */
    record Target(int peakPods, int poolsPerPod, TargetState state) {
        long planned() {
            return (long) peakPods * poolsPerPod * state.desired();
        }

        /** The most its pods may hold with {@code written} in its template (null: nothing written). */
        long most(Integer written) {
            int perPod = Math.max(state.holds(), state.runningHolds());
            return (long) peakPods * poolsPerPod * Math.max(perPod, written == null ? 0 : written);
        }
    }

    @Provide
    Arbitrary<Target> target() {
        var sizes = Arbitraries.integers().between(1, 12);
        // running pods around the size written: below it (a raise rolling out), at it, or above it (a stall, a shrink)
        var state = Combinators.combine(sizes, sizes.injectNull(0.2), Arbitraries.integers().between(-3, 6),
                Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 400).injectNull(0.4),
                Arbitraries.integers().between(1, 12))
                .as((desired, applied, delta, shape, heldFor, appDefault) -> {
                    boolean rolledOut = shape == 0;
                    boolean stalled = shape == 3;
                    int holds = applied == null ? appDefault : applied;
                    // a rolled-out target's running pods hold what it carries (or it runs none)
                    int running = Math.max(0, holds + delta);
                    int runningHolds = rolledOut ? Math.min(running, holds) : running;
                    return new TargetState("t", desired, applied, holds, rolledOut,
                            heldFor == null ? null : NOW.minusSeconds(heldFor), stalled, runningHolds);
                });
        return Combinators.combine(Arbitraries.integers().between(1, 12), Arbitraries.integers().between(1, 3), state)
                .as(Target::new);
    }

    @Provide
    Arbitrary<List<Target>> targets() {
        return target().list().ofMinSize(1).ofMaxSize(4).map(RaiseStepPropertiesTest::named);
    }

    @Provide
    Arbitrary<Boolean> sometimes() {
        return Arbitraries.of(false, false, false, true);
    }

    private static List<Target> named(List<Target> targets) {
        List<Target> out = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            var t = targets.get(i);
            var s = t.state();
            out.add(new Target(t.peakPods(), t.poolsPerPod(), new TargetState("t" + i, s.desired(), s.applied(),
                    s.holds(), s.rolledOut(), s.pendingSince(), s.stalled(), s.runningHolds())));
        }
        return out;
    }

    @Property(tries = 3000)
    void aStepStaysWithinThePlanAndAddsNoConnections(@ForAll("targets") List<Target> targets,
            @ForAll("sometimes") boolean somethingElseHoldsMore) {
        List<Verdict> verdicts = RolloutDecider.decide(targets.stream().map(Target::state).toList(),
                somethingElseHoldsMore ? List.of("Deployment/x (holds 9)") : List.of(), NOW, WINDOW);
        long budget = targets.stream().mapToLong(Target::planned).sum(); // the plan fits exactly
        long most = 0;
        boolean anyStep = false;
        for (int i = 0; i < targets.size(); i++) {
            TargetState s = targets.get(i).state();
            Verdict v = verdicts.get(i);
            Integer written = v.action() == Action.APPLY ? Integer.valueOf(s.desired()) : v.step();
            most += targets.get(i).most(written);
            if (v.step() == null) {
                continue;
            }
            anyStep = true;
            assertThat(v.action()).as("the rest of the raise is held").isIn(Action.HOLD_FOR_WINDOW,
                    Action.HOLD_FOR_ROLLOUTS);
            assertThat(v.pendingSince()).as("the rest keeps its window").isNotNull();
            assertThat(v.step()).as("above the size written, below the plan").isGreaterThan(s.holds())
                    .isLessThan(s.desired());
            assertThat(v.step()).as("what a running pod holds already, and no pod more").isEqualTo(s.runningHolds());
            assertThat(targets.get(i).most(v.step())).as("no more than its pods may hold now, nor than its plan")
                    .isLessThanOrEqualTo(targets.get(i).most(null)).isLessThanOrEqualTo(targets.get(i).planned());
        }
        Statistics.label("a step written").collect(anyStep);
        // not a vacuous property: the generated passes do write steps
        Statistics.label("a step written").coverage(c -> c.check(true).percentage(p -> p > 2));
        if (anyStep) {
            assertThat(somethingElseHoldsMore).as("no step while something outside holds more than planned").isFalse();
            assertThat(most).as("every pod of the policy at the most it may hold, once the writes are out")
                    .isLessThanOrEqualTo(budget);
        }
    }
}
