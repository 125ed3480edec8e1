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

    @Test
    void anotherClusterJoiningTheLedgerGetsItsShareOnlyAfterThisClustersAppHasShrunk() throws Exception {
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
        var alone = awaitBudget("eu-1 alone in the ledger, planning with the whole budget",
                b -> b.getStatus().getLedger() != null && b.getStatus().getLedger().getPlanWith() == WHOLE);
        System.out.println("LedgerE2E alone: " + condition(alone));
        awaitSized(WHOLE);

        List<Connection> opened = new ArrayList<>();
        try (var sampler = ConnectionSampler.start(Set.of(RealApps.appName(ns, "a"), OTHER_APP));
                var eu2 = new LedgerStore(new LedgerStore.Credentials(JDBC, WRITER, "w"), SCHEMA)) {
            var props = new Properties();
            props.setProperty("user", "app");
            props.setProperty("password", "app");
            props.setProperty("ApplicationName", OTHER_APP);
            String evidence = new Evidence(Evidence.Kind.ApplicationNamePrefix, "eu-2.").describe();
            Settled joined = (Settled) eu2.tick("orders", new Tick("eu-2", 1, WHOLE, 0, 60_000, evidence));
            assertThat(joined.planWith()).as("eu-2 may use nothing while eu-1 holds the whole budget").isZero();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
            Settled last = joined;
            while (opened.size() < WHOLE / 2 && System.nanoTime() < deadline) {
                Thread.sleep(2_000);
                last = (Settled) eu2.tick("orders", new Tick("eu-2", 1, WHOLE, opened.size(), 60_000, evidence));
                while (opened.size() < last.planWith()) {
                    opened.add(DriverManager.getConnection(JDBC, props)); // its pods take their new size
                }
            }
            System.out.println("LedgerE2E eu-2: " + last);
            assertThat(opened).as("eu-2 reached its share: " + last).hasSize(WHOLE / 2);
            var shared = awaitBudget("eu-1's status showing both clusters",
                    b -> b.getStatus().getLedger() != null && b.getStatus().getLedger().getClusters().size() == 2
                            && b.getStatus().getLedger().getPlanWith() == WHOLE / 2);
            System.out.println("LedgerE2E shared: " + condition(shared));
            awaitSized(WHOLE / 2);
            assertThat(condition(shared)).startsWith("True/Settled: this cluster plans with 6 of a budget of 12");
            Awaitility.await("PostgreSQL counting eu-2's 6 and the app's pools").atMost(60, TimeUnit.SECONDS)
                    .until(() -> sampler.now() >= WHOLE / 2);
            sampler.assertWithin("two clusters on one ledger", WHOLE);
            System.out.println("LedgerE2E: PostgreSQL peak " + sampler.peak() + " of " + WHOLE);
        } finally {
            for (Connection c : opened) {
                c.close();
            }
        }
    }
}
