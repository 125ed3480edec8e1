package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link Transition}'s figures against a simulated Deployment controller rolling a size out, step by step as
 * Kubernetes' does it: it scales the new ReplicaSet up to min(replicas, replicas + surge − old ReplicaSet) (terminating
 * pods not counted) and the old one down as far as the available pods allow (replicas − unavailable), and an old pod it
 * stops holds its pool until it exits, at most {@code terminating} of them at once.
 */
class TransitionPropertiesTest {

    /** The controller's state: old pods running, old pods stopped but still holding their pools, new pods. */
    static final class Controller {
        final long r;
        final long surge;
        final long unavailable;
        final long terminating;
        long oldRunning;
        long shutting;
        long newPods;
        long available;
        long most;
        final long oldSize;
        final long newSize;

        Controller(long r, long surge, long unavailable, long terminating, long oldSize, long newSize) {
            this.r = r;
            this.surge = surge;
            this.unavailable = unavailable;
            this.terminating = terminating;
            this.oldRunning = r;
            this.oldSize = oldSize;
            this.newSize = newSize;
            sync();
        }

        long holds() {
            return (oldRunning + shutting) * oldSize + newPods * newSize;
        }

        private void see() {
            most = Math.max(most, holds());
        }

        /** The controller's reconcile, until it changes nothing; what is held is seen after every write. */
        void sync() {
            see();
            boolean changed = true;
            while (changed) {
                long up = Math.min(r, r + surge - oldRunning);
                changed = up > newPods;
                newPods = Math.max(newPods, up);
                see();
                long down = Math.max(0, Math.min(oldRunning, oldRunning + available - (r - unavailable)));
                if (down > 0) {
                    oldRunning -= down;
                    shutting = Math.min(terminating, shutting + down); // the rest have exited
                    changed = true;
                }
                see();
            }
        }

        boolean done() {
            return available == r && oldRunning == 0 && shutting == 0;
        }

        /** A new pod turns available, or (where {@code exit}) a stopped old pod exits. */
        void step(boolean exit) {
            if (shutting > 0 && (exit || available == newPods)) {
                shutting--;
            } else {
                available++;
            }
            sync();
        }
    }

    record Case(long replicas, IntOrPercent maxSurge, IntOrPercent maxUnavailable, Integer terminatingPods,
            int oldSize, int newSize) {
        TargetInput target() {
            return TargetInput.builder("d").replicas((int) replicas).terminatingPods(terminatingPods)
                    .rollout(new Rollout.RollingUpdate(maxSurge, maxUnavailable)).build();
        }

        Controller simulate(boolean overlap) {
            var ru = (Rollout.RollingUpdate) target().rollout();
            long terminating = overlap ? PeakPods.terminating(target(), replicas) : 0;
            return new Controller(replicas, ru.surge(replicas), ru.unavailable(replicas), terminating, oldSize,
                    newSize);
        }
    }

    /**
     * Old pods exit only when they must (never more than the allowance at once) and new pods turn available one at a
     * time: the most the pods hold is the transition's peak (its noOverlap where no stopped pod outlives its stop).
     */
    @Property(tries = 2000)
    void thePeakIsTheMostASlowShutdownHolds(@ForAll("cases") Case c) {
        for (boolean overlap : new boolean[]{true, false}) {
            Controller sim = c.simulate(overlap);
            while (!sim.done()) {
                sim.step(sim.available == sim.newPods);
            }
            var t = Transition.of(c.target(), c.oldSize(), c.newSize());
            assertThat(sim.most).as("%s overlap %s", c, overlap).isEqualTo(overlap ? t.peak() : t.noOverlap());
        }
    }

    /** In any order of pods turning available and old pods exiting, no moment holds more than the peak. */
    @Property(tries = 2000)
    void noMomentHoldsMoreThanThePeak(@ForAll("cases") Case c, @ForAll long seed) {
        Random random = new Random(seed);
        Controller sim = c.simulate(true);
        long peak = Transition.of(c.target(), c.oldSize(), c.newSize()).peak();
        while (!sim.done()) {
            sim.step(random.nextBoolean());
            assertThat(sim.holds()).as("%s", c).isLessThanOrEqualTo(peak);
        }
        assertThat(sim.most).isLessThanOrEqualTo(peak);
    }

    /** At the same size a rollout holds no more than the plan's peak pods allow for. */
    @Property(tries = 1000)
    void atTheSameSizeItStaysWithinThePlan(@ForAll("cases") Case c) {
        var t = Transition.of(c.target(), c.newSize(), c.newSize());
        assertThat(t.peak()).isLessThanOrEqualTo(PeakPods.of(c.target()).total() * c.newSize());
    }

    /** Concavity, checked: no number of stopped pods between the candidates holds more. */
    @Property(tries = 1000)
    void theCandidatesCoverEveryStep(@ForAll("cases") Case c) {
        var target = c.target();
        var ru = (Rollout.RollingUpdate) target.rollout();
        long r = c.replicas();
        long terminating = PeakPods.terminating(target, r);
        long peak = Transition.of(target, c.oldSize(), c.newSize()).peak();
        for (long x = Math.min(r, ru.unavailable(r)); x <= r; x++) {
            assertThat(Transition.stopped(r, ru.surge(r), terminating, x).hold(c.oldSize(), c.newSize()))
                    .isLessThanOrEqualTo(peak);
        }
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<IntOrPercent> amount = Arbitraries.oneOf(Arbitraries.integers().between(0, 5).map(IntOrPercent::of),
                Arbitraries.integers().between(0, 100).map(IntOrPercent::percent));
        return Combinators.combine(Arbitraries.longs().between(0, 25), amount, amount,
                Arbitraries.integers().between(0, 6).injectNull(0.6), Arbitraries.integers().between(1, 20),
                Arbitraries.integers().between(1, 20))
                .as(Case::new);
    }

    @Property(tries = 200)
    void aLowerSizeNeverPeaksBelowWhatIsHeld(@ForAll("cases") Case c, @ForAll @IntRange(min = 1, max = 5) int less) {
        int lower = Math.max(1, c.oldSize() - less);
        var t = Transition.of(c.target(), c.oldSize(), lower);
        assertThat(t.peak()).isGreaterThanOrEqualTo(t.noOverlap()).isGreaterThanOrEqualTo(t.now());
    }
}
