package io.poolbudget.agent;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MBeanServerDelegate;
import javax.management.MBeanServerNotification;
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

    /**
     * Runs {@code action} in the thread that registers a pool's configuration MBean, which HikariCP does in the pool's
     * constructor before its first fill (100 ms later, on its housekeeper): a new pool takes the published size before
     * it opens more than its first connection, whatever size the application's own settings gave it.
     */
    static javax.management.NotificationListener onRegistration(Runnable action) {
        javax.management.NotificationListener listener = (notification, handback) -> {
            if (notification instanceof MBeanServerNotification
                    && MBeanServerNotification.REGISTRATION_NOTIFICATION.equals(notification.getType())
                    && "com.zaxxer.hikari".equals(((MBeanServerNotification) notification).getMBeanName()
                            .getDomain())) {
                try {
                    action.run();
                } catch (RuntimeException e) { // never the application's failure
                    System.err.println("poolbudget-agent: could not size a new pool: " + e);
                }
            }
        };
        try {
            ManagementFactory.getPlatformMBeanServer().addNotificationListener(MBeanServerDelegate.DELEGATE_NAME,
                    listener, null, null);
        } catch (JMException e) {
            System.err.println("poolbudget-agent: new pools are sized on the next period only: " + e);
        }
        return listener;
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

        @Override
        public int awaiting() throws JMException {
            return server.isRegistered(pool) ? (Integer) server.getAttribute(pool, "ThreadsAwaitingConnection") : 0;
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
