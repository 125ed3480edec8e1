package io.poolbudget.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The demand's window on pools whose counts the test sets, on a clock the test moves: the highest sample of the last
 * ten seconds, kept through any number of reads, gone once the window has passed it, and unknown (never 0) while a
 * pool cannot say what it holds.
 */
class DemandTest {
    private static final long SECOND = 1_000_000_000L;
    private final List<Pools.Pool> pools = new ArrayList<>();
    private long now = 1_000 * SECOND;
    private final Demand demand = new Demand(() -> pools, () -> now);

    @Test
    void theHighestSampleOfTheWindowIsKeptThroughReadsThenFalls() {
        var a = pool(2, 1);
        var b = pool(3, 0);
        demand.sample();
        assertThat(demand.demand()).as("in use plus waiting, over both pools").isEqualTo(6);
        a.active = 0;
        a.awaiting = 0;
        b.active = 1;
        now += SECOND / 10;
        demand.sample();
        assertThat(demand.demand()).as("the burst stays the high").isEqualTo(6);
        now += 9 * SECOND;
        demand.sample();
        assertThat(demand.demand()).isEqualTo(6);
        assertThat(demand.demand()).as("a read resets nothing").isEqualTo(6);
        now += SECOND;
        demand.sample();
        assertThat(demand.demand()).as("ten seconds on, the burst is out of the window").isEqualTo(1);
        now += 30 * SECOND;
        assertThat(demand.demand()).as("no sample in the window").isNull();
    }

    @Test
    void aPoolThatCannotSayWhatItHoldsMakesTheDemandUnknownUntilTheWindowHasPassedIt() {
        var a = pool(4, 0);
        demand.sample();
        a.active = -1; // Agroal with its metrics off
        now += SECOND;
        demand.sample();
        assertThat(demand.demand()).isNull();
        a.active = 2;
        now += SECOND;
        demand.sample();
        assertThat(demand.demand()).as("the unknown second is still in the window").isNull();
        now += 9 * SECOND;
        demand.sample();
        assertThat(demand.demand()).isEqualTo(2);
        a.failing = true;
        demand.sample();
        assertThat(demand.demand()).as("a pool that cannot be read").isNull();
    }

    @Test
    void theRecentDemandIsTheHighOfThisSecondAndTheOneBefore() {
        var a = pool(6, 2);
        demand.sample();
        assertThat(demand.recent()).isEqualTo(8);
        a.active = 1;
        a.awaiting = 0;
        now += SECOND;
        demand.sample();
        assertThat(demand.recent()).as("the second before still holds 8").isEqualTo(8);
        now += SECOND;
        demand.sample();
        assertThat(demand.recent()).as("two seconds on: what the pod wants now").isEqualTo(1);
        assertThat(demand.demand()).as("the 10 s high still holds the load that ended").isEqualTo(8);
        a.active = -1;
        demand.sample();
        assertThat(demand.recent()).as("a sample not known").isNull();
        now += 5 * SECOND;
        assertThat(demand.recent()).as("no sample in the last two seconds").isNull();
    }

    @Test
    void noPoolIsNoDemand() {
        demand.sample();
        assertThat(demand.demand()).isNull();
        assertThat(new Demand(() -> null, () -> now).demand()).isNull();
    }

    @Test
    void theStatusSaysTheDemandOnlyWhereItIsKnown() {
        var snapshot = new Resizer.Snapshot(3, List.of(new Resizer.PoolState("hikari:app", 3, 3, 3, 2, 1, null)), null);
        assertThat(snapshot.json(3, 2)).isEqualTo("{\"published\":3,\"confirmed\":true,\"error\":null,\"demand\":3,"
                + "\"recent\":2,"
                + "\"pools\":[{\"name\":\"hikari:app\",\"maximum\":3,\"minimumIdle\":3,\"total\":3,\"active\":2,"
                + "\"awaiting\":1,\"error\":null}]}");
        assertThat(snapshot.json(null, null)).doesNotContain("demand").doesNotContain("recent");
    }

    private Counts pool(int active, int awaiting) {
        var p = new Counts();
        p.active = active;
        p.awaiting = awaiting;
        pools.add(p);
        return p;
    }

    /** A pool that says what the test set. */
    static final class Counts implements Pools.Pool {
        int active;
        int awaiting;
        boolean failing;

        @Override
        public String name() {
            return "test";
        }

        @Override
        public int maximum() {
            return 10;
        }

        @Override
        public int minimumIdle() {
            return 10;
        }

        @Override
        public int total() {
            return 10;
        }

        @Override
        public int active() {
            if (failing) {
                throw new IllegalStateException("cannot be read");
            }
            return active;
        }

        @Override
        public int awaiting() {
            return awaiting;
        }

        @Override
        public void resize(int size) {}
    }
}
