package io.poolbudget.example;

import com.zaxxer.hikari.HikariDataSource;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A service whose HikariCP pool PoolBudget sizes. {@code /work} runs a short transaction;
 * {@code /pool} reports the pool as HikariCP itself sees it; {@code /actuator/prometheus} carries
 * HikariCP's own metrics (hikaricp_connections_max, _active, _idle, _pending). With
 * {@code REPLICA_DB_HOST} set it also holds a second pool, to a read replica ({@code /read} uses it,
 * {@code /pool} reports it under "replica"), which a second PoolPolicy sizes. With {@code STARTUP_CONNECTIONS}
 * above 1 it takes that many connections at once while it starts, as some applications do (Keycloak takes a second
 * one while it holds the first): on a smaller pool it cannot start, and exits after HikariCP's connection timeout.
 */
@SpringBootApplication
@RestController
public class PoolApp {
    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final HikariDataSource pool;
    private final ReplicaPool replica;

    public PoolApp(JdbcTemplate jdbc, TransactionTemplate tx, HikariDataSource pool, ReplicaPool replica) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.pool = pool;
        this.replica = replica;
    }

    public static void main(String[] args) {
        SpringApplication.run(PoolApp.class, args);
    }

    @Bean(destroyMethod = "close")
    static ReplicaPool replicaPool(Environment env) {
        return ReplicaPool.from(env);
    }

    /** Open the pools at start-up, as a service that is ready to serve does: each fills to minimumIdle. */
    @Bean
    ApplicationRunner openPool(Environment env) {
        int atOnce = Integer.parseInt(env.getProperty("STARTUP_CONNECTIONS", "1"));
        return args -> {
            holdAtOnce(atOnce);
            jdbc.queryForObject("select 1", Integer.class);
            if (replica.pool != null) {
                new JdbcTemplate(replica.pool).queryForObject("select 1", Integer.class);
            }
        };
    }

    /** Takes {@code n} connections, each while holding the ones before, and gives them back. */
    private void holdAtOnce(int n) throws java.sql.SQLException {
        if (n <= 1) {
            return;
        }
        var held = new java.util.ArrayList<java.sql.Connection>();
        try {
            for (int i = 0; i < n; i++) {
                held.add(pool.getConnection());
            }
        } finally {
            for (var c : held) {
                c.close();
            }
        }
    }

    @GetMapping("/read")
    public String read(@RequestParam(defaultValue = "5") int ms) {
        if (replica.pool == null) {
            return "no replica configured (set REPLICA_DB_HOST)";
        }
        return new JdbcTemplate(replica.pool).queryForObject("select pg_sleep(? / 1000.0)::text", String.class, ms) == null
                ? "no row" : "ok";
    }

    @GetMapping("/work")
    public String work(@RequestParam(defaultValue = "5") int ms) {
        return tx.execute(status -> jdbc.queryForObject("select pg_sleep(? / 1000.0)::text", String.class, ms) == null
                ? "no row" : "ok");
    }

    @GetMapping("/pool")
    public Map<String, Object> pool() {
        Map<String, Object> m = describe(pool);
        if (replica.pool != null) {
            m.put("replica", describe(replica.pool));
        }
        return m;
    }

    private static Map<String, Object> describe(HikariDataSource pool) {
        var mx = pool.getHikariPoolMXBean();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("maximumPoolSize", pool.getMaximumPoolSize());
        m.put("minimumIdle", pool.getMinimumIdle());
        m.put("total", mx == null ? 0 : mx.getTotalConnections());
        m.put("active", mx == null ? 0 : mx.getActiveConnections());
        m.put("idle", mx == null ? 0 : mx.getIdleConnections());
        return m;
    }
}
