package io.poolbudget.agent;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The HikariCP pools of this JVM, by their MBeans ({@code com.zaxxer.hikari:type=PoolConfig (name)} and
 * {@code type=Pool (name)}): no compile-time tie to HikariCP, so no version of it the application brings can clash.
 */
final class HikariPools implements Pools {
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final java.util.regex.Pattern names;

    /** The pools whose name matches {@code names}. */
    HikariPools(java.util.regex.Pattern names) {
        this.names = names;
    }

    @Override
    public List<Pool> all() {
        List<Pool> pools = new ArrayList<>();
        try {
            for (ObjectName config : server.queryNames(new ObjectName("com.zaxxer.hikari:type=PoolConfig (*)"), null)) {
                String name = config.getKeyProperty("type");
                name = name.substring("PoolConfig (".length(), name.length() - 1);
                if (!names.matcher(name).matches()) {
                    continue;
                }
                pools.add(new Hikari(name, config, new ObjectName("com.zaxxer.hikari:type=Pool (" + name + ")")));
            }
        } catch (JMException e) {
            throw new IllegalStateException("cannot read HikariCP's MBeans: " + e, e);
        }
        return pools;
    }

    private final class Hikari implements Pool {
        private final String name;
        private final ObjectName config;
        private final ObjectName pool;

        Hikari(String name, ObjectName config, ObjectName pool) {
            this.name = name;
            this.config = config;
            this.pool = pool;
        }

        @Override
        public String name() {
            return "hikari:" + name;
        }

        @Override
        public int maximum() throws JMException {
            return (Integer) server.getAttribute(config, "MaximumPoolSize");
        }

        @Override
        public int minimumIdle() throws JMException {
            return (Integer) server.getAttribute(config, "MinimumIdle");
        }

        @Override
        public int total() throws JMException {
            return server.isRegistered(pool) ? (Integer) server.getAttribute(pool, "TotalConnections") : 0;
        }

        @Override
        public int active() throws JMException {
            return server.isRegistered(pool) ? (Integer) server.getAttribute(pool, "ActiveConnections") : 0;
        }

        /**
         * Shrink: the minimum first (with the default fixed-size pool, lowering only the maximum would keep idle
         * connections until maxLifetime), then the maximum, then a soft eviction: idle connections close at once, busy
         * ones when they are returned. Grow: the maximum first, then the minimum (the pool fills to it).
         */
        @Override
        public void resize(int size) throws JMException {
            if (size < maximum()) {
                set("MinimumIdle", Math.min(size, minimumIdle()));
                set("MaximumPoolSize", size);
                set("MinimumIdle", size);
                if (server.isRegistered(pool)) {
                    server.invoke(pool, "softEvictConnections", new Object[0], new String[0]);
                }
            } else {
                set("MaximumPoolSize", size);
                set("MinimumIdle", size);
            }
        }

        private void set(String attribute, int value) throws JMException {
            server.setAttribute(config, new javax.management.Attribute(attribute, value));
        }
    }
}
