package io.poolbudget.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent against a real Agroal pool (as Quarkus builds it: a minimum below the maximum) over a counting DataSource:
 * what the "database" holds is what the DataSource has open. A shrink closes idle connections at once and busy ones
 * when they are returned, a raise gives the application's own minimum back, and a datasource that is not Agroal's own
 * class is still counted (through its metrics). How Quarkus' datasources are found is proven on the real node.
 */
class ResizeAgroalTest {
    static final AtomicInteger OPEN = new AtomicInteger();
    /** Connections of an earlier test (closed as Agroal closes a pool: later, on its own thread) count for none. */
    static final AtomicInteger TEST = new AtomicInteger();
    @TempDir
    Path dir;
    private final List<AgroalDataSource> pools = new ArrayList<>();

    @org.junit.jupiter.api.BeforeEach
    void count() {
        TEST.incrementAndGet();
        OPEN.set(0);
    }

    @AfterEach
    void close() {
        pools.forEach(AgroalDataSource::close);
    }

    private AgroalDataSource pool(int max, int min) throws Exception {
        return pool(max, min, false);
    }

    private AgroalDataSource pool(int max, int min, boolean metrics) throws Exception {
        var ds = AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier().metricsEnabled(metrics)
                .connectionPoolConfiguration(
                        cp -> cp.maxSize(max).minSize(min).acquisitionTimeout(Duration.ofSeconds(30))
                                .connectionFactoryConfiguration(cf -> cf.connectionProviderClass(Counting.class))));
        pools.add(ds);
        return ds;
    }

    private Path publish(int size) throws Exception {
        return Files.writeString(dir.resolve("size"), size + "\n");
    }

    private static Resizer resizer(Path file, Object dataSource) {
        return new Resizer(file, new AgroalPools(() -> List.of(new AgroalPools.Named("<default>", dataSource, null)),
                Pattern.compile(".*")), n -> {});
    }

    @Test
    void aShrinkClosesIdleConnectionsAtOnceAndBusyOnesOnReturnThenARaiseGivesTheMinimumBack() throws Exception {
        var ds = pool(10, 2);
        List<Connection> held = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            held.add(ds.getConnection());
        }
        held.remove(5).close();
        held.remove(4).close(); // 4 busy, 2 idle
        assertThat(OPEN.get()).isEqualTo(6);

        var resizer = resizer(publish(3), ds);
        var shrinking = resizer.tick();
        assertThat(ds.getConfiguration().connectionPoolConfiguration().maxSize()).isEqualTo(3);
        assertThat(ds.getConfiguration().connectionPoolConfiguration().minSize()).isEqualTo(2);
        assertThat(shrinking.confirmed()).as("4 busy connections over a size of 3").isFalse();
        await(() -> OPEN.get() == 4); // the idle ones closed at once
        held.remove(0).close(); // over the maximum: closed on return
        await(() -> OPEN.get() == 3);
        assertThat(resizer.tick().confirmed()).isTrue();
        assertThat(resizer.last().pools.get(0).name).isEqualTo("agroal:<default>");
        assertThat(resizer.last().pools.get(0).active).as("unknown: Agroal's metrics are off").isEqualTo(-1);

        publish(8);
        resizer.tick();
        assertThat(ds.getConfiguration().connectionPoolConfiguration().maxSize()).isEqualTo(8);
        for (int i = 0; i < 5; i++) {
            held.add(ds.getConnection());
        }
        assertThat(OPEN.get()).isEqualTo(8);
        assertThat(resizer.tick().confirmed()).isTrue();

        publish(1); // below the application's minimum of 2: the minimum follows, Agroal would refuse otherwise
        resizer.tick();
        assertThat(ds.getConfiguration().connectionPoolConfiguration().minSize()).isEqualTo(1);
        held.forEach(ResizeAgroalTest::quietly);
        await(() -> OPEN.get() <= 1);
        await(() -> resizer.tick().confirmed());
        publish(5);
        resizer.tick();
        assertThat(ds.getConfiguration().connectionPoolConfiguration().minSize()).as("its own minimum back")
                .isEqualTo(2);
    }

    @Test
    void aFixedSizePoolStaysFixedAtEverySize() throws Exception {
        var ds = pool(6, 6); // as the quarkus-agroal preset writes it: MIN_SIZE at MAX_SIZE
        List<Connection> all = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            all.add(ds.getConnection());
        }
        all.forEach(ResizeAgroalTest::quietly); // six idle
        assertThat(OPEN.get()).isEqualTo(6);
        var resizer = resizer(publish(3), ds);
        resizer.tick();
        await(() -> OPEN.get() == 3); // the idle ones over the size closed at once
        assertThat(resizer.tick().confirmed()).isTrue();
        publish(5);
        resizer.tick();
        assertThat(ds.getConfiguration().connectionPoolConfiguration().minSize()).isEqualTo(5);
        assertThat(ds.getConfiguration().connectionPoolConfiguration().maxSize()).isEqualTo(5);
    }

    @Test
    void aDatasourceBehindAWrapperIsCountedThroughItsMetrics() throws Exception {
        var ds = pool(6, 0);
        Object wrapped = Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{AgroalDataSource.class},
                (proxy, method, args) -> {
                    try {
                        return method.invoke(ds, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
            var resizer = resizer(publish(4), wrapped);
            var seen = resizer.tick();
            assertThat(ds.getConfiguration().metricsEnabled()).as("turned on to count").isTrue();
            assertThat(seen.pools.get(0).total).as(seen.json()).isEqualTo(2);
            assertThat(seen.pools.get(0).active).as("Agroal counted none in use before its metrics were on")
                    .isEqualTo(-1);
            assertThat(seen.confirmed()).isTrue();
        }
    }

    @Test
    void theDemandIsTheConnectionsInUsePlusTheCallersWaitingWhereAgroalCountsThem() throws Exception {
        for (boolean metrics : new boolean[]{true, false}) {
            var ds = pool(2, 0, metrics);
            var resizer = resizer(dir.resolve("absent"), ds);
            resizer.tick();
            long[] clock = {0};
            var demand = new Demand(resizer::pools, () -> clock[0]);
            try (Callers held = Callers.start(2, ds::getConnection)) {
                // the callers' own count: the first round's pool still holds 2 open connections, so a count of
                // opened ones would pass before these callers have theirs, and the waiting ones could take them
                await(() -> held.holding() == 2);
                try (Callers waiting = Callers.start(3, ds::getConnection)) {
                    await(() -> resizer.tick().pools.get(0).awaiting == 3); // counted with or without metrics
                    demand.sample();
                    if (metrics) {
                        assertThat(demand.demand()).as("2 in use, 3 waiting").isEqualTo(5);
                    } else {
                        assertThat(demand.demand()).as("in use unknown: no demand, not 0").isNull();
                    }
                    held.close();
                }
            }
            clock[0] += 10_000_000_000L;
            demand.sample();
            assertThat(demand.demand()).as("metrics %s, after the window", metrics).isEqualTo(metrics ? 0 : null);
        }
    }

    @Test
    void aDatasourceThatCannotBeHadIsReportedAndNeverConfirmed() throws Exception {
        var resizer = new Resizer(publish(3), new AgroalPools(() -> List.of(new AgroalPools.Named("orders", null,
                "datasource orders cannot be had: boom")), Pattern.compile(".*")), n -> {});
        var seen = resizer.tick();
        assertThat(seen.confirmed()).isFalse();
        assertThat(seen.json()).contains("\"name\":\"agroal:orders\"").contains("boom");
    }

    @Test
    void withoutQuarkusNoAgroalPoolIsFound() {
        assertThat(new QuarkusDataSources().get()).isEmpty();
    }

    private static void quietly(Connection c) {
        try {
            c.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s");
            }
            Thread.sleep(20);
        }
    }

    /** The connection provider Agroal builds by its class: connections that count themselves open until closed. */
    public static final class Counting implements DataSource {
        @Override
        public Connection getConnection() {
            OPEN.incrementAndGet();
            int test = TEST.get();
            return CountingConnections.open(() -> {
                if (test == TEST.get()) {
                    OPEN.decrementAndGet();
                }
            });
        }

        @Override
        public Connection getConnection(String user, String password) {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() { return new PrintWriter(System.err); }

        @Override
        public void setLogWriter(PrintWriter out) {}

        @Override
        public void setLoginTimeout(int seconds) {}

        @Override
        public int getLoginTimeout() { return 0; }

        @Override
        public Logger getParentLogger() { return Logger.getGlobal(); }

        @Override
        public <T> T unwrap(Class<T> iface) {
            return null;
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }
}
