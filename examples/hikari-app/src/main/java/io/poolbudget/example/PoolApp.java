package io.poolbudget.example;

import com.zaxxer.hikari.HikariDataSource;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A service whose HikariCP pool PoolBudget sizes. {@code /work} runs a short transaction;
 * {@code /pool} reports the pool as HikariCP itself sees it; {@code /actuator/prometheus} carries
 * HikariCP's own metrics (hikaricp_connections_max, _active, _idle, _pending).
 */
@SpringBootApplication
@RestController
public class PoolApp {
    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final HikariDataSource pool;

    public PoolApp(JdbcTemplate jdbc, TransactionTemplate tx, HikariDataSource pool) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.pool = pool;
    }

    public static void main(String[] args) {
        SpringApplication.run(PoolApp.class, args);
    }

    /** Open the pool at start-up, as a service that is ready to serve does: it fills to minimumIdle. */
    @Bean
    ApplicationRunner openPool() {
        return args -> jdbc.queryForObject("select 1", Integer.class);
    }

    @GetMapping("/work")
    public String work(@RequestParam(defaultValue = "5") int ms) {
        return tx.execute(status -> jdbc.queryForObject("select pg_sleep(? / 1000.0)::text", String.class, ms) == null
                ? "no row" : "ok");
    }

    @GetMapping("/pool")
    public Map<String, Object> pool() {
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
