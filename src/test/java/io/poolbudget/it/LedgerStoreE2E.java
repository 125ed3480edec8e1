package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.ledger.Evidence;
import io.poolbudget.ledger.LedgerStore;
import io.poolbudget.ledger.LedgerStore.Credentials;
import io.poolbudget.sizing.ClusterLedger.Claim;
import io.poolbudget.sizing.ClusterLedger.Failed;
import io.poolbudget.sizing.ClusterLedger.Outcome;
import io.poolbudget.sizing.ClusterLedger.Refused;
import io.poolbudget.sizing.ClusterLedger.Settled;
import io.poolbudget.sizing.ClusterLedger.Tick;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 57: the cross-cluster ledger's transactions on the test PostgreSQL, as several clusters' operators would run
 * them: a schema owned by an account of its own, shrink-first between clusters, ticks at the same time, a quiet
 * cluster freed only once its connections are gone, and what a tampered row, an account that may not write and a
 * database that cannot be reached do (a clear failure, nothing written).
 */
@ClusterTest
@OutsideTheLane // no operator, no cluster object: transactions on the test PostgreSQL only
class LedgerStoreE2E {
    static final String JDBC = "jdbc:postgresql://10.88.0.1:5434/app";
    static final String SUFFIX = Long.toHexString(System.nanoTime() & 0xffffffL);
    static final String SCHEMA = "ledger_e2e_" + SUFFIX;
    static final String WRITER = "ledger_w_" + SUFFIX;
    static final String READER = "ledger_r_" + SUFFIX;

    @BeforeAll
    static void accounts() {
        GhostHost.psql("CREATE ROLE " + WRITER + " LOGIN PASSWORD 'w' IN ROLE pg_read_all_stats",
                "CREATE SCHEMA " + SCHEMA + " AUTHORIZATION " + WRITER,
                "CREATE ROLE " + READER + " LOGIN PASSWORD 'r'");
    }

    @AfterAll
    static void dropThem() {
        GhostHost.psql("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE", "DROP ROLE IF EXISTS " + WRITER,
                "DROP ROLE IF EXISTS " + READER);
    }

    static LedgerStore writer() {
        return new LedgerStore(new Credentials(JDBC, WRITER, "w"), SCHEMA);
    }

    static Tick tick(String cluster, int weight, long holds) {
        return new Tick(cluster, weight, 30, holds, 15_000,
                new Evidence(Evidence.Kind.ApplicationNamePrefix, cluster + "-").describe());
    }

    static Settled settled(Outcome outcome) {
        assertThat(outcome).isInstanceOf(Settled.class);
        return (Settled) outcome;
    }

    @Test
    void aSecondClusterGetsItsShareOnlyOnceTheFirstHasShrunk() {
        String ledger = "shrink-first";
        try (var eu1 = writer(); var eu2 = writer()) {
            assertThat(settled(eu1.tick(ledger, tick("eu-1", 1, 0))).granted()).isEqualTo(30);
            Settled joined = settled(eu2.tick(ledger, tick("eu-2", 2, 0)));
            assertThat(joined.planWith()).isZero();
            assertThat(joined.waits()).containsExactly("cluster eu-1 is granted 30 and may use it");
            assertThat(settled(eu1.tick(ledger, tick("eu-1", 1, 30))).planWith()).isEqualTo(10);
            assertThat(settled(eu1.tick(ledger, tick("eu-1", 1, 10))).granted()).isEqualTo(10);
            Settled second = settled(eu2.tick(ledger, tick("eu-2", 2, 0)));
            assertThat(second.planWith()).isEqualTo(20);
        }
        assertThat(GhostHost.psql("SELECT string_agg(cluster || '=' || granted, ',' ORDER BY cluster) FROM " + SCHEMA
                + ".claims WHERE ledger = 'shrink-first'")).isEqualTo("eu-1=10,eu-2=20");
        assertThat(GhostHost.psql("SELECT string_agg(message, ' | ' ORDER BY id) FROM " + SCHEMA + ".events WHERE "
                + "ledger = 'shrink-first'")).isEqualTo("cluster eu-1 joined with weight 1, granted 30 | "
                        + "cluster eu-2 joined with weight 2, granted 0 | cluster eu-1 granted 30 → 10 | "
                        + "cluster eu-2 granted 0 → 20");
    }

    @Test
    void clustersTickingAtOnceNeverHoldMoreThanTheBudgetAndSettleOnTheirWeights() throws Exception {
        String ledger = "at-once";
        int[] weights = {1, 2, 3, 4};
        try (var first = writer()) { // c0 joins first, holding the whole budget as it did before the ledger
            assertThat(settled(first.tick(ledger, tick("c0", 1, 30))).granted()).isEqualTo(30);
        }
        ExecutorService threads = Executors.newFixedThreadPool(weights.length);
        try {
            List<Future<List<Settled>>> runs = new ArrayList<>();
            for (int i = 0; i < weights.length; i++) {
                String cluster = "c" + i;
                int weight = weights[i];
                runs.add(threads.submit(() -> {
                    List<Settled> seen = new ArrayList<>();
                    long holds = cluster.equals("c0") ? 30 : 0;
                    try (var store = writer()) {
                        for (int n = 0; n < 25; n++) {
                            Settled s = settled(store.tick(ledger, tick(cluster, weight, holds)));
                            seen.add(s);
                            holds = s.planWith(); // its pods take the planned size before its next tick
                        }
                    }
                    return seen;
                }));
            }
            for (var run : runs) {
                for (Settled s : run.get()) {
                    long sum = s.claims().stream().mapToLong(Claim::granted).sum();
                    assertThat(sum).as("Σ granted after a tick").isLessThanOrEqualTo(30);
                }
            }
        } finally {
            threads.shutdownNow();
        }
        try (var store = writer()) {
            for (int i = 0; i < weights.length; i++) {
                Settled last = settled(store.tick(ledger, tick("c" + i, weights[i], (i + 1) * 3)));
                assertThat(last.planWith()).as("c%d", i).isEqualTo((i + 1) * 3);
            }
        }
    }

    @Test
    void aQuietClusterIsFreedOnlyOnceTheDatabaseShowsNoneOfItsConnections() throws Exception {
        String ledger = "quiet";
        String prefix = "quiet-" + SUFFIX + "-";
        Tick quiet = new Tick("quiet", 1, 30, 15, 1_000,
                new Evidence(Evidence.Kind.ApplicationNamePrefix, prefix).describe());
        var props = new Properties();
        props.setProperty("user", "app");
        props.setProperty("password", "app");
        props.setProperty("ApplicationName", prefix + "pod-1");
        try (var store = writer(); var stays = writer()) {
            settled(stays.tick(ledger, tick("stays", 1, 0)));
            try (var open = DriverManager.getConnection(JDBC, props)) {
                settled(store.tick(ledger, quiet));
                Thread.sleep(1_500); // its lease lapses: its operator stopped, its pod still holds a connection
                Settled held = settled(stays.tick(ledger, tick("stays", 1, 15)));
                assertThat(held.planWith()).isEqualTo(15);
                assertThat(held.waits()).containsExactly("cluster quiet still holds 15 until its lease ends and its "
                        + "connections close (1 open, ApplicationNamePrefix " + prefix + ")");
            }
            Settled freed = settled(stays.tick(ledger, tick("stays", 1, 15)));
            assertThat(freed.events()).containsExactly("freed cluster quiet's 15: its lease lapsed and the database "
                    + "shows none of its connections (ApplicationNamePrefix " + prefix + ")",
                    "cluster stays granted 15 → 30");
            assertThat(freed.planWith()).isEqualTo(30);
        }
    }

    @Test
    void aTamperedRowIsRefusedNamingItAndNothingIsWritten() {
        String ledger = "tampered";
        try (var a = writer(); var b = writer()) {
            settled(a.tick(ledger, tick("a", 1, 0)));
            settled(b.tick(ledger, tick("b", 1, 0)));
            String before = GhostHost.psql("SELECT lease_until || ' ' || granted FROM " + SCHEMA + ".claims WHERE "
                    + "ledger = 'tampered' AND cluster = 'b'");
            GhostHost.psql("UPDATE " + SCHEMA + ".claims SET weight = 0 WHERE ledger = 'tampered' AND cluster = 'a'");
            assertThat(b.tick(ledger, tick("b", 1, 0)))
                    .isEqualTo(new Refused("ledger row of cluster a: weight 0 is outside 1..1000000"));
            assertThat(GhostHost.psql("SELECT lease_until || ' ' || granted FROM " + SCHEMA + ".claims WHERE "
                    + "ledger = 'tampered' AND cluster = 'b'")).isEqualTo(before);
        }
    }

    @Test
    void anAccountThatMayNotWriteIsToldWhatToRunAndWritesNothing() {
        try (var w = writer()) {
            settled(w.tick("read-only", tick("a", 1, 0)));
        }
        GhostHost.psql("GRANT USAGE ON SCHEMA " + SCHEMA + " TO " + READER,
                "GRANT SELECT ON ALL TABLES IN SCHEMA " + SCHEMA + " TO " + READER);
        try (var r = new LedgerStore(new Credentials(JDBC, READER, "r"), SCHEMA)) {
            Outcome outcome = r.tick("read-only", tick("b", 1, 0));
            assertThat(outcome).isInstanceOf(Failed.class);
            assertThat(((Failed) outcome).reason()).isEqualTo("PermissionDenied");
            assertThat(((Failed) outcome).message()).startsWith("account " + READER + " may not write the ledger in "
                    + "schema " + SCHEMA + " (ERROR: permission denied for table ledgers)").endsWith(
                            "as the database's owner, run CREATE SCHEMA " + SCHEMA + " AUTHORIZATION " + READER
                                    + " (docs/clusters.md)");
        }
        assertThat(GhostHost.psql("SELECT string_agg(cluster, ',') FROM " + SCHEMA + ".claims WHERE ledger = "
                + "'read-only'")).isEqualTo("a");
    }

    @Test
    void aDatabaseThatCannotBeReachedIsAFailureThatSaysSo() {
        try (var s = new LedgerStore(new Credentials("jdbc:postgresql://127.0.0.1:1/app", WRITER, "w"), SCHEMA)) {
            Outcome outcome = s.tick("nowhere", tick("a", 1, 0));
            assertThat(outcome).isInstanceOf(Failed.class);
            assertThat(((Failed) outcome).reason()).isEqualTo("Unreachable");
            assertThat(((Failed) outcome).message()).startsWith("cannot reach the ledger's database (");
        }
    }
}
