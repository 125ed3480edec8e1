package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.sizing.ClusterLedger.Claim;
import io.poolbudget.sizing.ClusterLedger.Settled;
import io.poolbudget.sizing.ClusterLedger.Tick;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The ledger's transitions over random histories of several clusters (jqwik shrinks a failure to a short one): each
 * cluster's pods follow what its ticks allow, clusters stop and vanish, time passes, and the database never holds
 * more than the budget.
 */
class ClusterLedgerPropertiesTest {
    static final long LEASE = 15_000;

    /** One step of a history: who acts, how, and a number the action reads. */
    record Step(int cluster, Action action, int amount) {}

    enum Action {
        TICK, MOVE_PODS, WAIT, STOP, VANISH, REWEIGH
    }

    /** A cluster as the world has it: what its pods hold, what it last planned with, and whether it still runs. */
    static final class World {
        final String[] names;
        final long[] pods;
        final long[] plan;
        final long[] leaseEnds;
        final int[] weight;
        final boolean[] running;
        final boolean[] vanished;
        List<Claim> ledger = List.of();
        long now = 1_000_000;

        World(int n, int[] weights) {
            names = new String[n];
            for (int i = 0; i < n; i++) {
                names[i] = "c" + i;
            }
            pods = new long[n];
            plan = new long[n];
            leaseEnds = new long[n];
            weight = weights.clone();
            running = new boolean[n];
            java.util.Arrays.fill(running, true);
            vanished = new boolean[n];
        }

        Settled tick(int c, long budget) {
            Map<String, Long> seen = new HashMap<>();
            for (int i = 0; i < names.length; i++) {
                seen.put(names[i], pods[i]); // the database shows what each cluster's pods hold
            }
            var outcome = ClusterLedger.tick(ledger, new Tick(names[c], weight[c], budget, pods[c], LEASE,
                    "application_name c" + c + "-%"), now, seen);
            assertThat(outcome).isInstanceOf(Settled.class);
            Settled s = (Settled) outcome;
            ledger = s.claims();
            plan[c] = s.planWith();
            leaseEnds[c] = now + LEASE;
            return s;
        }
    }

    @Property(tries = 1000)
    void theDatabaseNeverHoldsMoreThanTheBudget(@ForAll @IntRange(min = 2, max = 4) int clusters,
            @ForAll @IntRange(min = 0, max = 200) int budget, @ForAll("weights") int[] weights,
            @ForAll("histories") List<Step> history) {
        World w = new World(clusters, weights);
        for (Step step : history) {
            int c = step.cluster() % clusters;
            switch (step.action()) {
                case TICK -> {
                    if (w.running[c]) {
                        Settled s = w.tick(c, budget);
                        long others = s.claims().stream().filter(x -> !x.cluster().equals(w.names[c]))
                                .mapToLong(Claim::granted).sum();
                        assertThat(s.planWith()).isLessThanOrEqualTo(s.granted()).isLessThanOrEqualTo(
                                Math.max(s.granted(), s.target()));
                        assertThat(s.granted()).isGreaterThanOrEqualTo(w.pods[c]);
                        assertThat(others + s.granted()).as("a tick raised into room others hold")
                                .isLessThanOrEqualTo(Math.max(budget, others + w.pods[c]));
                    }
                }
                // the operator resizes its pods: down at any time, up only to its plan and while its lease runs
                case MOVE_PODS -> {
                    if (w.running[c]) {
                        long to = step.amount() % (w.plan[c] + 1);
                        if (to < w.pods[c] || w.now <= w.leaseEnds[c]) {
                            w.pods[c] = to;
                        }
                    }
                }
                case WAIT -> w.now += step.amount() * 250L;
                case STOP -> w.running[c] = false; // the operator stops; its pods keep what they hold
                case VANISH -> { // the cluster's pods are gone too, for good
                    w.running[c] = false;
                    w.vanished[c] = true;
                    w.pods[c] = 0;
                }
                case REWEIGH -> w.weight[c] = 1 + step.amount() % 5;
            }
            long held = 0;
            for (long p : w.pods) {
                held += p;
            }
            assertThat(held).as("the database's count after %s", step).isLessThanOrEqualTo(budget);
            assertThat(w.ledger.stream().mapToLong(Claim::granted).sum()).as("Σ granted").isLessThanOrEqualTo(budget);
        }
    }

    @Property(tries = 500)
    void clustersThatFollowTheirPlansSettleOnTheirWeightedSharesAndThenWriteNoChange(
            @ForAll @IntRange(min = 1, max = 5) int clusters, @ForAll @IntRange(min = 0, max = 500) int budget,
            @ForAll("weights") int[] weights, @ForAll @IntRange(min = 0, max = 4) int firstFull) {
        World w = new World(clusters, weights);
        // one cluster starts out holding the whole budget, as an operator without a ledger would
        w.pods[firstFull % clusters] = budget;
        for (int round = 0; round < 4; round++) {
            for (int c = 0; c < clusters; c++) {
                w.tick(c, budget);
                w.pods[c] = w.plan[c]; // its pods take the planned size before its next tick
            }
        }
        long[] expected = SharedBudget.largestRemainder(budget,
                java.util.Arrays.stream(w.weight, 0, clusters).asLongStream().toArray());
        for (int c = 0; c < clusters; c++) {
            Settled s = w.tick(c, budget);
            assertThat(s.planWith()).as("cluster %d", c).isEqualTo(expected[c]).isEqualTo(s.target());
            assertThat(s.events()).as("a steady tick changes nothing").isEmpty();
            assertThat(s.waits()).isEmpty();
        }
    }

    @Property(tries = 1000)
    void aLapsedClaimIsFreedOnlyWhenTheDatabaseShowsNoneOfItsConnections(@ForAll("claims") List<Claim> claims,
            @ForAll @IntRange(min = 0, max = 3) int seenMode, @ForAll @IntRange(min = 0, max = 200) int holds) {
        long now = 100_000;
        Map<String, Long> seen = new HashMap<>();
        for (Claim c : claims) {
            if (seenMode == 1 || (seenMode == 2 && c.cluster().hashCode() % 2 == 0)) {
                seen.put(c.cluster(), 0L);
            } else if (seenMode == 3) {
                seen.put(c.cluster(), 1L + Math.abs(c.cluster().hashCode() % 3));
            }
        }
        var outcome = ClusterLedger.tick(claims, new Tick("self", 1, 300, holds, LEASE, "user self"), now, seen);
        Settled s = (Settled) outcome;
        for (Claim c : claims) {
            boolean kept = s.claims().stream().anyMatch(x -> x.cluster().equals(c.cluster()));
            boolean mayGo = c.leaseUntil() < now && Long.valueOf(0).equals(seen.get(c.cluster()));
            assertThat(kept).as("%s (seen %s)", c, seen.get(c.cluster())).isEqualTo(!mayGo);
        }
    }

    @Provide
    Arbitrary<int[]> weights() {
        return Arbitraries.integers().between(1, 5).array(int[].class).ofSize(5);
    }

    @Provide
    Arbitrary<List<Step>> histories() {
        Arbitrary<Step> step = Combinators.combine(Arbitraries.integers().between(0, 3),
                Arbitraries.of(Action.class), Arbitraries.integers().between(0, 200))
                .as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(80);
    }

    @Provide
    Arbitrary<List<Claim>> claims() {
        Arbitrary<Claim> claim = Combinators.combine(Arbitraries.integers().between(0, 6),
                Arbitraries.integers().between(1, 5), Arbitraries.longs().between(0, 40),
                Arbitraries.longs().between(0, 40), Arbitraries.longs().between(90_000, 110_000))
                .as((i, weight, holds, extra, lease) -> new Claim("c" + i, weight, 300, holds + extra, holds, lease,
                        "user c" + i));
        return claim.list().ofMaxSize(6).uniqueElements(Claim::cluster);
    }
}
