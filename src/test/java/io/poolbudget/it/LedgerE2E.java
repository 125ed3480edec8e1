package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.ledger.Evidence;
import io.poolbudget.ledger.LedgerStore;
import io.poolbudget.sizing.ClusterLedger.Settled;
import io.poolbudget.sizing.ClusterLedger.Tick;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 57, first step: this cluster's operator shares a DatabaseBudget with another cluster through the ledger in the
 * test PostgreSQL. The other cluster is played by the test: it ticks its claim through the same {@link LedgerStore}
 * its operator would, and holds real connections up to what the ledger lets it plan with. When it joins, this
 * cluster's real app shrinks first; the other cluster's connections open only into room the app has given back, and
 * PostgreSQL, sampled every 100 ms, never counts more than the budget.
 */
@org.junit.jupiter.api.Order(2)
class LedgerE2E extends OperatorTestBase {
    static final String JDBC = "jdbc:postgresql://10.88.0.1:5434/app";
    static final String SUFFIX = Long.toHexString(System.nanoTime() & 0xffffffL);
    static final String SCHEMA = "ledger_op_" + SUFFIX;
    static final String WRITER = "ledger_op_w_" + SUFFIX;
    static final String SECRET = "ledger-e2e-" + SUFFIX;
    static final String BUDGET = "ledger-e2e-" + SUFFIX;
    static final String OTHER_APP = "eu-2.ledger-e2e";
    static final int WHOLE = 12;

    @BeforeAll
    static void start() {
        GhostHost.psql("CREATE ROLE " + WRITER + " LOGIN PASSWORD 'w' IN ROLE pg_read_all_stats",
                "CREATE SCHEMA " + SCHEMA + " AUTHORIZATION " + WRITER);
        var client = TestCluster.of(LedgerE2E.class).client();
        client.secrets().inNamespace("default").resource(new SecretBuilder().withNewMetadata().withName(SECRET)
                .endMetadata().addToStringData(Map.of("jdbcUrl", JDBC, "username", WRITER, "password", "w")).build())
                .serverSideApply();
        startOperatorAsShipped("ledger-e2e", "0s", Map.of("POOLBUDGET_LEADER_ELECTION_NAMESPACE", "default"));
    }

    @AfterAll
    static void dropThem() {
        var client = TestCluster.of(LedgerE2E.class).client();
        client.resources(DatabaseBudget.class).withName(BUDGET).delete();
        client.secrets().inNamespace("default").withName(SECRET).delete();
        GhostHost.psql("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE", "DROP ROLE IF EXISTS " + WRITER);
    }

    private void applyBudget() {
        String yaml = """
                apiVersion: poolbudget.io/v1alpha1
                kind: DatabaseBudget
                metadata: {name: %s}
                spec:
                  database: {name: e2e-postgres, budget: %d}
                  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: %s}}
                  ledger:
                    name: orders
                    cluster: eu-1
                    secretName: %s
                    schema: %s
                    leaseSeconds: 10
                    evidence: {applicationNamePrefix: "%s."}
                """.formatted(BUDGET, WHOLE, ns, SECRET, SCHEMA, ns);
        client.resource(client.resources(DatabaseBudget.class)
                .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).item()).serverSideApply();
    }

    private DatabaseBudget awaitBudget(String what, java.util.function.Predicate<DatabaseBudget> done) {
        Awaitility.await(what).atMost(240, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .until(() -> {
                    var b = client.resources(DatabaseBudget.class).withName(BUDGET).get();
                    return b != null && b.getStatus() != null && done.test(b);
                });
        return client.resources(DatabaseBudget.class).withName(BUDGET).get();
    }

    private static String condition(DatabaseBudget b) {
        return b.getStatus().getConditions().stream().filter(c -> c.getType().equals("LedgerSynced"))
                .map(c -> c.getStatus() + "/" + c.getReason() + ": " + c.getMessage()).findFirst().orElse("");
    }

    /** The policy plans with {@code share}, its size is rolled out, and the app's old pods are gone. */
    private void awaitSized(long share) {
        awaitPolicy("db", q -> {
            var t = target(q, "a");
            return t != null && q.getStatus().getBudget() != null && q.getStatus().getBudget().getConnections() == share
                    && "Applied".equals(t.getState()) && t.getPoolSize() != null
                    && t.getPoolSize().equals(t.getAppliedPoolSize());
        }, 240);
        awaitRolledOut("a", 240);
        awaitOldPodsGone("a", 120);
    }

    /**
     * The other cluster, played by the test as its operator would run: a tick every 2 s through the ledger's store,
     * and its pods' connections by JDBC, given back before each tick and taken after it.
     */
    private static final class OtherCluster implements AutoCloseable {
        final LedgerStore store = new LedgerStore(new LedgerStore.Credentials(JDBC, WRITER, "w"), SCHEMA);
        final List<Connection> opened = new ArrayList<>();
        final String evidence = new Evidence(Evidence.Kind.ApplicationNamePrefix, "eu-2.").describe();
        final java.util.concurrent.ScheduledExecutorService ticker = java.util.concurrent.Executors
                .newSingleThreadScheduledExecutor();
        volatile int weight = 1;
        Settled last;

        /** One tick: its pods first give back what it may no longer hold, then take what it may. */
        synchronized Settled tick() throws java.sql.SQLException {
            while (last != null && opened.size() > last.planWith()) {
                opened.remove(opened.size() - 1).close();
            }
            last = (Settled) store.tick("orders", new Tick("eu-2", weight, WHOLE, opened.size(), 10_000, evidence));
            var props = new Properties();
            props.setProperty("user", "app");
            props.setProperty("password", "app");
            props.setProperty("ApplicationName", OTHER_APP);
            while (opened.size() < last.planWith()) {
                opened.add(DriverManager.getConnection(JDBC, props));
            }
            return last;
        }

        void renewEvery2s() {
            ticker.scheduleWithFixedDelay(() -> {
                try {
                    tick();
                } catch (java.sql.SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, 2, 2, TimeUnit.SECONDS);
        }

        synchronized int holds() {
            return opened.size();
        }

        synchronized Settled last() {
            return last;
        }

        /** Waits until its pods hold {@code connections}. */
        void follow(int connections, String why) {
            Awaitility.await(why).atMost(300, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                    .until(() -> holds() == connections);
        }

        /** Its operator stops and its pods go: no more ticks, every connection closed. */
        synchronized void leave() throws java.sql.SQLException {
            ticker.shutdownNow();
            for (Connection c : opened) {
                c.close();
            }
            opened.clear();
        }

        @Override
        public void close() throws Exception {
            leave();
            store.close();
        }
    }

    private long planWith(DatabaseBudget b) {
        return b.getStatus().getLedger() == null ? -1 : b.getStatus().getLedger().getPlanWith();
    }

    private void ledgerSecret(String jdbcUrl) {
        client.secrets().inNamespace("default").resource(new SecretBuilder().withNewMetadata().withName(SECRET)
                .endMetadata().addToStringData(Map.of("jdbcUrl", jdbcUrl, "username", WRITER, "password", "w"))
                .build()).serverSideApply();
    }

    @Test
    void twoClustersShareTheBudgetThroughJoinsWeightsARestartACutAndALeaveWithinTheBudget() throws Exception {
        create(RealApps.app(ns, "a", 2, Map.of(), 0));
        awaitRolledOut("a", 240);
        applyBudget();
        applyPolicy("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db}
                spec:
                  databaseRef: {name: %s}
                  injection: {preset: spring-boot-hikari}
                  targets: [{name: a}]
                """.formatted(BUDGET));
        var alone = awaitBudget("eu-1 alone in the ledger, planning with the whole budget", b -> planWith(b) == WHOLE);
        System.out.println("LedgerE2E alone: " + condition(alone));
        awaitSized(WHOLE);

        try (var sampler = ConnectionSampler.start(Set.of(RealApps.appName(ns, "a"), OTHER_APP));
                var eu2 = new OtherCluster()) {
            // 1. eu-2 joins: nothing for it until eu-1's app has shrunk to 6
            assertThat(eu2.tick().planWith()).as("eu-2 may use nothing while eu-1 holds the whole budget").isZero();
            eu2.renewEvery2s();
            eu2.follow(6, "eu-2 reached its share");
            awaitSized(6);
            var shared = awaitBudget("eu-1's status showing both clusters",
                    b -> b.getStatus().getLedger().getClusters().size() == 2 && planWith(b) == 6);
            assertThat(condition(shared)).startsWith("True/Settled: this cluster plans with 6 of a budget of 12");

            // 2. weights 1:2: eu-1 shrinks to 4 first, then eu-2 grows to 8
            eu2.weight = 2;
            awaitBudget("eu-1 planning with 4", b -> planWith(b) == 4);
            awaitSized(4);
            eu2.follow(8, "eu-2 grew into what eu-1 gave back");

            // 3. eu-1's operator killed and started again: it resumes from the ledger, nothing moves
            killOperator("ledger-e2e", Map.of("POOLBUDGET_STABILIZATION_WINDOW", "0s",
                    "POOLBUDGET_LEADER_ELECTION_NAMESPACE", "default"));
            awaitBudget("eu-1's new operator renewing its claim",
                    b -> condition(b).startsWith("True/Settled: this cluster plans with 4"));
            assertThat(awaitPolicy("db", p -> p.getStatus().getBudget() != null, 30).getStatus().getBudget()
                    .getConnections()).isEqualTo(4);

            // 4. eu-1 cut off from the ledger: it keeps its sizes and says so; its lease lapses, but its claim stands
            //    while PostgreSQL shows its app's connections
            ledgerSecret("jdbc:postgresql://127.0.0.1:1/app");
            var cut = awaitBudget("eu-1 reporting the ledger unreachable",
                    b -> condition(b).startsWith("False/Unreachable"));
            System.out.println("LedgerE2E cut: " + condition(cut));
            Thread.sleep(12_000); // eu-1's lease (10 s) lapses
            Settled whileCut = eu2.last();
            assertThat(whileCut.planWith()).as("eu-2 takes nothing of a cut-off cluster that still holds its pools")
                    .isEqualTo(8);
            assertThat(whileCut.waits()).singleElement().asString().startsWith("cluster eu-1 still holds 4 until its "
                    + "lease ends and its connections close (");
            assertThat(awaitPolicy("db", p -> true, 10).getStatus().getBudget().getConnections()).isEqualTo(4);
            ledgerSecret(JDBC);
            awaitBudget("eu-1 back in the ledger", b -> condition(b).startsWith("True/Settled: this cluster plans "
                    + "with 4"));

            // 5. eu-2 goes away: its connections close, its lease lapses, and eu-1 gets the whole budget back
            eu2.leave();
            var back = awaitBudget("eu-1 granted the whole budget once eu-2's lease lapsed and its connections closed",
                    b -> planWith(b) == WHOLE && b.getStatus().getLedger().getClusters().size() == 1);
            System.out.println("LedgerE2E back: " + condition(back));
            Awaitility.await("the ledger's series at the metrics endpoint").atMost(30, TimeUnit.SECONDS)
                    .untilAsserted(() -> {
                        var scrape = Scrape.of(operator.port());
                        assertThat(scrape.value("poolbudget_ledger_plan_connections", Map.of("budget", BUDGET)))
                                .isEqualTo((double) WHOLE);
                        assertThat(scrape.value("poolbudget_ledger_synced", Map.of("budget", BUDGET))).isEqualTo(1.0);
                        assertThat(scrape.value("poolbudget_ledger_granted_connections", Map.of("budget", BUDGET,
                                "cluster", "eu-1"))).isEqualTo((double) WHOLE);
                    });
            awaitSized(WHOLE);
            sampler.assertWithin("two clusters on one ledger", WHOLE);
            System.out.println("LedgerE2E: PostgreSQL peak " + sampler.peak() + " of " + WHOLE);
            assertThat(sampler.peak()).as("eu-2's 8 and eu-1's app were sampled").isGreaterThanOrEqualTo(9);
        }
    }
}
