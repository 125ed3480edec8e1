package io.poolbudget.example;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.springframework.core.env.Environment;

/**
 * The optional second pool, to a read replica: on when {@code REPLICA_DB_HOST} is set. A plain holder
 * rather than a second DataSource bean, so Spring Boot's own primary pool stays auto-configured. Its
 * size comes from REPLICA_POOL_SIZE and REPLICA_MIN_IDLE, which a second PoolPolicy writes; without
 * them HikariCP's default of 10 applies, as for the primary.
 */
final class ReplicaPool implements AutoCloseable {
    final HikariDataSource pool;

    private ReplicaPool(HikariDataSource pool) {
        this.pool = pool;
    }

    static ReplicaPool from(Environment env) {
        String host = env.getProperty("REPLICA_DB_HOST");
        if (host == null || host.isBlank()) {
            return new ReplicaPool(null);
        }
        String app = env.getProperty("APP_NAME", "hikari-app") + "-replica";
        var config = new HikariConfig();
        config.setPoolName(app);
        config.setJdbcUrl("jdbc:postgresql://" + host + ":" + env.getProperty("REPLICA_DB_PORT", "5436") + "/"
                + env.getProperty("DB_NAME", "app") + "?ApplicationName=" + app);
        config.setUsername(env.getProperty("DB_USER", "app"));
        config.setPassword(env.getProperty("DB_PASSWORD", "app"));
        config.setReadOnly(true);
        config.setConnectionTimeout(10_000);
        int max = Integer.parseInt(env.getProperty("REPLICA_POOL_SIZE", "10"));
        config.setMaximumPoolSize(max);
        config.setMinimumIdle(Integer.parseInt(env.getProperty("REPLICA_MIN_IDLE", Integer.toString(max))));
        return new ReplicaPool(new HikariDataSource(config));
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.close();
        }
    }
}
