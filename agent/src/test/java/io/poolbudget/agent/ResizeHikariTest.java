package io.poolbudget.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent against a real HikariCP pool (the application's side, unmodified) over a counting DataSource: what the
 * "database" holds is what the DataSource has open. A published shrink closes idle connections at once and busy ones
 * when they are returned, a raise fills the pool, a new pool starts at the published size.
 */
class ResizeHikariTest {
    @TempDir
    Path dir;
    private final AtomicInteger open = new AtomicInteger();
    private HikariDataSource pool;
    private String before;

    @BeforeEach
    void fastHousekeeping() {
        before = System.getProperty(HikariDefaults.PROPERTY);
        System.clearProperty(HikariDefaults.PROPERTY);
        System.setProperty("com.zaxxer.hikari.housekeeping.periodMs", "100");
    }

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
        System.clearProperty(HikariDefaults.PROPERTY);
        if (before != null) {
            System.setProperty(HikariDefaults.PROPERTY, before);
        }
    }

    /** A pool as a framework builds it: a HikariConfig (which reads the agent's defaults), then its own settings. */
    private HikariDataSource pool(String name) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(name);
        config.setDataSource(countingDataSource());
        config.setConnectionTimeout(2000);
        return new HikariDataSource(config);
    }

    private Path publish(int size) throws Exception {
        Path file = dir.resolve("size");
        Files.writeString(file, size + "\n");
        return file;
    }

    @Test
    void aShrinkClosesIdleConnectionsAtOnceAndBusyOnesOnReturnThenARaiseFills() throws Exception {
        Path file = publish(5);
        Path defaults = HikariDefaults.install(5, dir);
        pool = pool("shrink");
        assertThat(pool.getMaximumPoolSize()).as("a new pool starts at the published size").isEqualTo(5);
        await(() -> open.get() == 5);
        var resizer = new Resizer(file, new HikariPools(java.util.regex.Pattern.compile(".*")),
                n -> HikariDefaults.update(defaults, n));
        assertThat(resizer.tick().confirmed()).isTrue();

        Connection busy = pool.getConnection();
        publish(2);
        var shrinking = resizer.tick();
        assertThat(pool.getHikariConfigMXBean().getMaximumPoolSize()).isEqualTo(2);
        assertThat(pool.getHikariConfigMXBean().getMinimumIdle()).isEqualTo(2);
        await(() -> open.get() <= 2); // the 4 idle ones closed; the busy one and a refill
        busy.close(); // evicted: closed on return
        await(() -> resizer.tick().confirmed());
        await(() -> open.get() == 2);
        assertThat(shrinking.published).isEqualTo(2);

        publish(4);
        resizer.tick();
        await(() -> open.get() == 4);
        assertThat(resizer.tick().confirmed()).isTrue();
        assertThat(Files.readString(defaults)).as("pools built from now on start at 4").contains("maximumPoolSize=4");
    }

    @Test
    void aPoolTheApplicationSizesItselfTakesThePublishedSizeBeforeItFills() throws Exception {
        Path file = publish(3);
        HikariDefaults.install(3, dir);
        var resizer = new Resizer(file, new HikariPools(java.util.regex.Pattern.compile(".*")), n -> {});
        var listener = HikariPools.onRegistration(resizer::tick);
        try {
            HikariConfig config = new HikariConfig();
            config.setPoolName("explicit");
            config.setDataSource(countingDataSource());
            config.setMaximumPoolSize(10); // as Spring Boot does from its own property, over the agent's defaults
            pool = new HikariDataSource(config);
            assertThat(pool.getHikariConfigMXBean().getMaximumPoolSize()).isEqualTo(3);
            Thread.sleep(500); // several housekeeping periods: it fills to 3, never to 10
            assertThat(open.get()).isEqualTo(3);
            assertThat(resizer.tick().confirmed()).isTrue();
        } finally {
            java.lang.management.ManagementFactory.getPlatformMBeanServer().removeNotificationListener(
                    javax.management.MBeanServerDelegate.DELEGATE_NAME, listener);
        }
    }

    @Test
    void withNothingPublishedNothingIsTouchedAndNothingIsConfirmed() throws Exception {
        HikariDefaults.install(null, dir);
        pool = pool("untouched");
        int framework = pool.getMaximumPoolSize();
        var resizer = new Resizer(dir.resolve("absent"), new HikariPools(java.util.regex.Pattern.compile(".*")),
                n -> {});
        var seen = resizer.tick();
        assertThat(seen.confirmed()).isFalse();
        assertThat(seen.pools).extracting(p -> p.name).contains("hikari:untouched");
        assertThat(pool.getHikariConfigMXBean().getMaximumPoolSize()).isEqualTo(framework);
    }

    @Test
    void onlyThePoolsNamedAreSized() throws Exception {
        Path file = publish(2);
        HikariDefaults.install(null, dir);
        pool = pool("orders");
        try (HikariDataSource other = pool("reports")) {
            int framework = other.getMaximumPoolSize();
            var resizer = new Resizer(file, new HikariPools(java.util.regex.Pattern.compile("orders")), n -> {});
            assertThat(resizer.tick().pools).extracting(p -> p.name).containsExactly("hikari:orders");
            assertThat(pool.getHikariConfigMXBean().getMaximumPoolSize()).isEqualTo(2);
            assertThat(other.getHikariConfigMXBean().getMaximumPoolSize()).isEqualTo(framework);
        }
    }

    @Test
    void theStatusPortSaysWhatWasApplied() throws Exception {
        Path file = publish(3);
        HikariDefaults.install(3, dir);
        pool = pool("status");
        var resizer = new Resizer(file, new HikariPools(java.util.regex.Pattern.compile(".*")), n -> {});
        await(() -> resizer.tick().confirmed());
        var demand = new Demand(resizer::pools, System::nanoTime);
        var server = new StatusServer(0, resizer, demand);
        server.start();
        String body = new String(new URL("http://127.0.0.1:" + server.port() + "/").openStream().readAllBytes(),
                StandardCharsets.UTF_8);
        assertThat(body).startsWith("{\"published\":3,\"confirmed\":true").contains("\"name\":\"hikari:status\"")
                .contains("\"maximum\":3").doesNotContain("demand");
        demand.sample();
        body = new String(new URL("http://127.0.0.1:" + server.port() + "/").openStream().readAllBytes(),
                StandardCharsets.UTF_8);
        assertThat(body).contains("\"error\":null,\"demand\":0,\"recent\":0,\"pools\"");
    }

    @Test
    void theDemandIsTheConnectionsInUsePlusTheCallersWaitingUntilTheWindowHasPassedIt() throws Exception {
        HikariDefaults.install(null, dir);
        HikariConfig config = new HikariConfig();
        config.setPoolName("demand");
        config.setDataSource(countingDataSource());
        config.setMaximumPoolSize(2);
        config.setConnectionTimeout(30_000);
        pool = new HikariDataSource(config);
        var resizer = new Resizer(dir.resolve("absent"), new HikariPools(java.util.regex.Pattern.compile(".*")),
                n -> {});
        resizer.tick();
        long[] clock = {0};
        var demand = new Demand(resizer::pools, () -> clock[0]);
        var sampled = new Demand(resizer::pools, System::nanoTime);
        Thread sampling = sampled.start();
        try (Callers held = Callers.start(2, pool::getConnection)) {
            await(() -> held.holding() == 2);
            try (Callers waiting = Callers.start(3, pool::getConnection)) {
                await(() -> sampled.demand() != null && sampled.demand() >= 5); // on its own thread, 10 times a second
                demand.sample();
                assertThat(demand.demand()).as("2 in use, 3 waiting").isEqualTo(5);
                assertThat(resizer.tick().pools.get(0).awaiting).isEqualTo(3);
                held.close();
            }
        } finally {
            sampling.interrupt();
        }
        clock[0] += 9_000_000_000L;
        demand.sample();
        assertThat(demand.demand()).as("within the window").isEqualTo(5);
        clock[0] += 1_000_000_000L;
        demand.sample();
        assertThat(demand.demand()).as("after it: all given back").isZero();
    }

    @Test
    void aConfigurationFileTheUserNamedIsKept() throws Exception {
        Path theirs = Files.writeString(dir.resolve("theirs.properties"),
                "maximumPoolSize=7\nconnectionTimeout=1234\n");
        System.setProperty(HikariDefaults.PROPERTY, theirs.toString());
        Path sub = Files.createDirectory(dir.resolve("agent"));
        Path ours = HikariDefaults.install(null, sub);
        assertThat(System.getProperty(HikariDefaults.PROPERTY)).isEqualTo(ours.toString());
        assertThat(Files.readString(ours)).contains("maximumPoolSize=7").contains("connectionTimeout=1234")
                .contains("registerMbeans=true");
    }

    @Test
    void aNewPodWaitsForItsFirstSizeBeforeItsPoolsAreBuilt() throws Exception {
        Path file = dir.resolve("size");
        var writer = new Thread(() -> {
            try {
                Thread.sleep(300);
                Files.writeString(file, "6");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        writer.start();
        assertThat(PoolBudgetAgent.awaitSize(file, 10_000)).isEqualTo(6);
        writer.join();
        assertThat(PoolBudgetAgent.awaitSize(dir.resolve("never"), 200)).as("gives up after its wait").isNull();
    }

    @Test
    void optionsAndSizeFilesAreReadStrictly() throws Exception {
        assertThat(PoolBudgetAgent.parse("file=/x, port=0")).containsEntry("file", "/x").containsEntry("port", "0");
        assertThat(PoolBudgetAgent.parse(null)).isEmpty();
        for (String bad : new String[]{"", "0", "-3", "4.5", "12abc", "99999999", "$(POOLBUDGET_MAX_POOL_SIZE)"}) {
            Files.writeString(dir.resolve("bad"), bad);
            assertThat(SizeFile.read(dir.resolve("bad"))).as("'%s'", bad).isNull();
        }
        Files.writeString(dir.resolve("good"), " 12\n");
        assertThat(SizeFile.read(dir.resolve("good"))).isEqualTo(12);
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

    /** A DataSource whose connections do nothing but count themselves open until closed. */
    private DataSource countingDataSource() {
        return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{DataSource.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getConnection" :
                            open.incrementAndGet();
                            return connection();
                        case "getLogWriter" :
                            return new PrintWriter(System.err);
                        case "getParentLogger" :
                            return Logger.getGlobal();
                        case "getLoginTimeout" :
                            return 0;
                        default :
                            return null;
                    }
                });
    }

    private Connection connection() {
        return CountingConnections.open(open::decrementAndGet);
    }
}
