package io.poolbudget.agent;

import static io.poolbudget.agent.Reflective.call;
import static io.poolbudget.agent.Reflective.callOwn;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The Agroal pools of this JVM (Quarkus' datasources; {@link QuarkusDataSources} finds them), driven through Agroal's
 * public API by reflection only, so no version of Agroal the application brings can clash:
 * {@code getConfiguration().connectionPoolConfiguration()} whose {@code setMaxSize}/{@code setMinSize} Agroal documents
 * as taking effect on the running pool, and {@code flush(IDLE)}.
 */
final class AgroalPools implements Pools {
    private static final String DATA_SOURCE = "io.agroal.api.AgroalDataSource";
    private static final String DS_CONFIG = "io.agroal.api.configuration.AgroalDataSourceConfiguration";
    private static final String POOL_CONFIG = "io.agroal.api.configuration.AgroalConnectionPoolConfiguration";
    private static final String METRICS = "io.agroal.api.AgroalDataSourceMetrics";
    private static final Class<?>[] INT = {int.class};

    private final Supplier<List<Named>> dataSources;
    private final Pattern names;
    /** Each pool's own minimum, as the application configured it: a raise gives it back, never more than the size. */
    private final Map<Object, Integer> ownMinimum = Collections.synchronizedMap(new WeakHashMap<>());
    /** Datasources whose metrics the agent turned on: their count of connections in use started late. */
    private final java.util.Set<Object> metricsTurnedOn = Collections.synchronizedSet(
            Collections.newSetFromMap(new WeakHashMap<>()));

    AgroalPools(Supplier<List<Named>> dataSources, Pattern names) {
        this.dataSources = dataSources;
        this.names = names;
    }

    /**
     * A datasource and its name (Quarkus' datasource name, {@code <default>} for the default one), or why it could not be
     * had ({@code problem}, then {@code dataSource} is null): that pool's report.
     */
    static final class Named {
        final String name;
        final Object dataSource;
        final String problem;

        Named(String name, Object dataSource, String problem) {
            this.name = name;
            this.dataSource = dataSource;
            this.problem = problem;
        }
    }

    @Override
    public List<Pool> all() {
        List<Pool> pools = new ArrayList<>();
        for (Named ds : dataSources.get()) {
            if (names.matcher(ds.name).matches()) {
                pools.add(new Agroal(ds));
            }
        }
        return pools;
    }

    private final class Agroal implements Pool {
        private final String name;
        private final Object dataSource;
        private final String problem;

        Agroal(Named ds) {
            this.name = ds.name;
            this.dataSource = ds.dataSource;
            this.problem = ds.problem;
        }

        @Override
        public String name() {
            return "agroal:" + name;
        }

        private Object config() throws Exception {
            if (problem != null) {
                throw new IllegalStateException(problem);
            }
            return call(call(dataSource, DATA_SOURCE, "getConfiguration"), DS_CONFIG, "connectionPoolConfiguration");
        }

        @Override
        public int maximum() throws Exception {
            return (Integer) call(config(), POOL_CONFIG, "maxSize");
        }

        @Override
        public int minimumIdle() throws Exception {
            return (Integer) call(config(), POOL_CONFIG, "minSize");
        }

        /**
         * The application's own minimum, as first seen; a fixed-size pool (minimum at the maximum, as the presets write
         * it) stays fixed at every size: its minimum follows the size.
         */
        private int own() throws Exception {
            Integer own = ownMinimum.get(dataSource);
            if (own == null) {
                int min = minimumIdle();
                own = min == maximum() ? Integer.MAX_VALUE : min;
                ownMinimum.put(dataSource, own);
            }
            return own;
        }

        /** At the size: its maximum, and the application's own minimum where that is smaller. */
        @Override
        public boolean sizedAt(int size) throws Exception {
            return maximum() == size && minimumIdle() == Math.min(own(), size);
        }

        @Override
        public int total() throws Exception {
            return (int) counts()[1];
        }

        @Override
        public int active() throws Exception {
            return (int) counts()[0];
        }

        /**
         * Connections in use and in all: Agroal keeps every connection in its pool's list (the total, always true) but
         * counts those in use only while its metrics are on, and says either through its API only then. The pool's
         * own list where the datasource is Agroal's class (behind a CDI proxy or not); else its metrics, turned on if
         * the application left them off. In use is -1 (unknown) where the metrics were off.
         */
        private long[] counts() throws Exception {
            config(); // its problem, if it has one
            Object dsConfig = call(dataSource, DATA_SOURCE, "getConfiguration");
            boolean metrics = (Boolean) call(dsConfig, DS_CONFIG, "metricsEnabled")
                    && !metricsTurnedOn.contains(dataSource);
            Object pool = poolOf(dataSource);
            if (pool != null) {
                long active = (Long) callOwn(pool, "activeCount");
                return new long[]{metrics ? active : -1, active + (Long) callOwn(pool, "availableCount")};
            }
            Object m = metrics(dsConfig);
            long active = (Long) call(m, METRICS, "activeCount");
            return new long[]{metrics ? active : -1, active + (Long) call(m, METRICS, "availableCount")};
        }

        /**
         * Callers waiting for a connection: Agroal's pool counts them whether or not its metrics are on (its metrics
         * say 0 while off: they are turned on first where the datasource is wrapped).
         */
        @Override
        public int awaiting() throws Exception {
            config(); // its problem, if it has one
            Object pool = poolOf(dataSource);
            if (pool != null) {
                return (int) (long) (Long) callOwn(pool, "awaitingCount");
            }
            return (int) (long) (Long) call(metrics(call(dataSource, DATA_SOURCE, "getConfiguration")), METRICS,
                    "awaitingCount");
        }

        /** The datasource's metrics, turned on if the application left them off. */
        private Object metrics(Object dsConfig) throws Exception {
            if (!(Boolean) call(dsConfig, DS_CONFIG, "metricsEnabled") && metricsTurnedOn.add(dataSource)) {
                call(dsConfig, DS_CONFIG, "setMetricsEnabled", new Class<?>[]{boolean.class}, true);
            }
            return call(dataSource, DATA_SOURCE, "getMetrics");
        }

        /**
         * Shrink: the minimum first (Agroal refuses a maximum below it), then the maximum; connections over it close
         * when they are returned (Agroal's own rule), idle ones at once by a flush of the idle. Grow: the maximum, then
         * the application's own minimum back (never above the size).
         */
        @Override
        public void resize(int size) throws Exception {
            Object config = config();
            int own = own();
            if (size < maximum()) {
                call(config, POOL_CONFIG, "setMinSize", INT, Math.min(own, size));
                call(config, POOL_CONFIG, "setMaxSize", INT, size);
                if (total() > size) {
                    Class<?> modes = Class.forName(DATA_SOURCE + "$FlushMode", false,
                            dataSource.getClass().getClassLoader());
                    call(dataSource, DATA_SOURCE, "flush", new Class<?>[]{modes}, enumConstant(modes, "IDLE"));
                }
            } else {
                call(config, POOL_CONFIG, "setMaxSize", INT, size);
                call(config, POOL_CONFIG, "setMinSize", INT, Math.min(own, size));
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumConstant(Class<?> type, String name) {
        return Enum.valueOf((Class) type, name);
    }

    /** Agroal's pool behind {@code io.agroal.pool.DataSource}, or null where the datasource is another class. */
    private static Object poolOf(Object dataSource) {
        try {
            Field f = POOL_FIELD.get(dataSource.getClass());
            return f == null ? null : f.get(dataSource);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** The field of {@code io.agroal.pool.DataSource} that holds its pool, found once; null for another class. */
    private static final ClassValue<Field> POOL_FIELD = new ClassValue<>() {
        @Override
        protected Field computeValue(Class<?> type) {
            if (!type.getName().equals("io.agroal.pool.DataSource")) {
                return null;
            }
            try {
                Field f = type.getDeclaredField("connectionPool");
                f.setAccessible(true);
                return f;
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
    };
}
