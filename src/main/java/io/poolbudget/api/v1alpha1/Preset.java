package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.poolbudget.sizing.Limits;

/**
 * What an application stack reads its pool size from, and what it holds without it: the one source for the operator,
 * {@code plan}, the CRD's description and docs/reference/presets.md ({@code PresetTableTest} checks the last two).
 * Each preset names its variables (the maximum, and where the stack has them the minimum and the initial size) or the
 * connection-string parameter the user points at the operator's value, what a pod without them holds (a number, no
 * limit at all, or a number derived from its node's CPUs) and the smallest pool its app starts with. A default is
 * the highest of the versions the preset covers, so a pod not sized yet is never undercounted.
 */
public enum Preset {
    @JsonProperty("spring-boot-hikari")
    SPRING_BOOT_HIKARI("Spring Boot 2.x-3.x, HikariCP", env("SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE",
            "SPRING_DATASOURCE_HIKARI_MINIMUMIDLE", null), AppDefault.of(10), 1), @JsonProperty("quarkus-agroal")
    QUARKUS_AGROAL("Quarkus 3.x, Agroal (the default datasource, or spec.injection.datasource)", // Quarkus raised Agroal's default max-size from 20 to 50 (quarkusio/quarkus#51169)
            named("", "QUARKUS_DATASOURCE_{DS}JDBC_MAX_SIZE", "QUARKUS_DATASOURCE_{DS}JDBC_MIN_SIZE"),
            AppDefault.of(50), 1), @JsonProperty("micronaut-hikari")
    MICRONAUT_HIKARI("Micronaut 3.x-4.x, HikariCP (datasource default, or spec.injection.datasource)",
            named("default", "DATASOURCES_{DS}MAXIMUM_POOL_SIZE", "DATASOURCES_{DS}MINIMUM_IDLE"), AppDefault.of(10),
            1), @JsonProperty("quarkus-reactive")
    QUARKUS_REACTIVE("Quarkus 3.x reactive SQL clients (the default datasource, or spec.injection.datasource)",
            named("", "QUARKUS_DATASOURCE_{DS}REACTIVE_MAX_SIZE", null), AppDefault.of(20),
            1), @JsonProperty("spring-r2dbc")
    SPRING_R2DBC("Spring Boot 2.x-3.x, R2DBC pool", env("SPRING_R2DBC_POOL_MAX_SIZE", "SPRING_R2DBC_POOL_MIN_IDLE",
            "SPRING_R2DBC_POOL_INITIAL_SIZE"), AppDefault.of(10), 1), @JsonProperty("hikari-env")
    HIKARI_ENV("HikariCP configured from HIKARI_* variables", env("HIKARI_MAXIMUM_POOL_SIZE", "HIKARI_MINIMUM_IDLE",
            null), AppDefault.of(10), 1), @JsonProperty("keycloak")
    KEYCLOAK("Keycloak 17-26 (Quarkus, Agroal); it takes a second connection while it starts",
            env("KC_DB_POOL_MAX_SIZE", "KC_DB_POOL_MIN_SIZE", "KC_DB_POOL_INITIAL_SIZE"), AppDefault.of(100),
            2), @JsonProperty("ecto")
    ECTO("Phoenix/Ecto (config/runtime.exs reads POOL_SIZE)", env("POOL_SIZE", null, null), AppDefault.of(10),
            1), @JsonProperty("gitea")
    GITEA("Gitea 1.x (Go database/sql)", env("GITEA__database__MAX_OPEN_CONNS", "GITEA__database__MAX_IDLE_CONNS",
            null), AppDefault.UNLIMITED, 1), @JsonProperty("mattermost")
    MATTERMOST("Mattermost 7.x-10.x (Go database/sql)", env("MM_SQLSETTINGS_MAXOPENCONNS",
            "MM_SQLSETTINGS_MAXIDLECONNS", null), AppDefault.of(300), 1), @JsonProperty("pgx")
    PGX("Go pgxpool (pgx v4-v5)", url("pool_max_conns", "pool_min_conns"), AppDefault.cpus("max(4, CPUs)"),
            1), @JsonProperty("prisma")
    PRISMA("Prisma ORM 2-6", url("connection_limit", null), AppDefault.cpus("2 x physical CPUs + 1"),
            1), @JsonProperty("npgsql")
    NPGSQL(".NET Npgsql (connection string keywords)", url("Maximum Pool Size", "Minimum Pool Size"),
            AppDefault.of(100), 1), @JsonProperty("rails")
    RAILS("Rails 6-8 (DATABASE_URL ?pool=; a pool per Puma worker: pools per pod = the template's WEB_CONCURRENCY)",
            url("pool", null), AppDefault.of(5), 1), @JsonProperty("pgbouncer")
    PGBOUNCER("PgBouncer images configured by variables (edoburu/pgbouncer and the like): the pool size is the pod's "
            + "server connections to each database; max_db_connections caps them whatever the users",
            env("DEFAULT_POOL_SIZE", null, "MAX_DB_CONNECTIONS"), AppDefault.of(20),
            1), @JsonProperty("pgbouncer-bitnami")
    PGBOUNCER_BITNAMI("PgBouncer, Bitnami's image (PGBOUNCER_* variables); as pgbouncer",
            env("PGBOUNCER_DEFAULT_POOL_SIZE", null, "PGBOUNCER_MAX_DB_CONNECTIONS"), AppDefault.of(20), 1);

    /**
     * The variables a pooler's image reads its client limit (max_client_conn) from, and PgBouncer's default: what a
     * policy whose spec.database.pooler names that pooler may have its apps open together, per pooler pod.
     */
    public static final java.util.List<String> CLIENT_LIMIT_ENV = java.util.List.of("MAX_CLIENT_CONN",
            "PGBOUNCER_MAX_CLIENT_CONN");
    public static final int PGBOUNCER_MAX_CLIENT_CONN = 100;

    /** HikariCP's maximumPoolSize when none is configured; also assumed for explicit variable names. */
    public static final int HIKARI_DEFAULT = 10;
    /** Where a datasource name goes in a variable name ("" for the default datasource). */
    public static final String DATASOURCE = "{DS}";

    /** Variable names (env presets) or connection-string parameters (url presets); min and initial may be null. */
    public record Knobs(boolean url, String max, String min, String initial, String defaultDatasource) {
        /** The variable (or parameter) {@code template} names for {@code datasource} (null: the default one). */
        public String named(String template, String datasource) {
            if (template == null || defaultDatasource == null) {
                return template;
            }
            String ds = datasource == null || datasource.isEmpty() ? defaultDatasource : datasource;
            return template.replace(DATASOURCE,
                    ds.isEmpty() ? "" : ds.toUpperCase(java.util.Locale.ROOT).replaceAll("[^A-Z0-9]", "_") + "_");
        }
    }

    /**
     * What a pod holds without the size: {@code pools} connections, or no limit, or (where {@code cpus} names the
     * rule) a number derived from its node's CPUs, which the operator cannot see: counted as no limit until sized
     * unless spec.injection.appDefaultPoolSize says what your nodes give.
     */
    public record AppDefault(Integer pools, String cpus) {
        static final AppDefault UNLIMITED = new AppDefault(null, null);

        static AppDefault of(int pools) {
            return new AppDefault(pools, null);
        }

        static AppDefault cpus(String rule) {
            return new AppDefault(null, rule);
        }

        /** What a pod not sized yet may open: the number, or {@link Limits#POOL_SIZE} for no known limit. */
        public int counted() {
            return pools != null ? pools : Limits.POOL_SIZE;
        }

        public String describe() {
            return pools != null ? Integer.toString(pools)
                    : cpus != null ? cpus + " (counted as no limit)" : "no limit";
        }
    }

    private final String stack;
    private final Knobs knobs;
    private final AppDefault appDefault;
    private final int minimumPool;

    Preset(String stack, Knobs knobs, AppDefault appDefault, int minimumPool) {
        this.stack = stack;
        this.knobs = knobs;
        this.appDefault = appDefault;
        this.minimumPool = minimumPool;
    }

    private static Knobs env(String max, String min, String initial) {
        return new Knobs(false, max, min, initial, null);
    }

    /** Variables with a datasource's name in them; {@code defaultDatasource} is the name without one ("": none). */
    private static Knobs named(String defaultDatasource, String max, String min) {
        return new Knobs(false, max, min, null, defaultDatasource);
    }

    private static Knobs url(String max, String min) {
        return new Knobs(true, max, min, null, null);
    }

    /** The name users write in spec.injection.preset. */
    public String value() {
        return name().toLowerCase().replace('_', '-');
    }

    public String stack() {
        return stack;
    }

    public Knobs knobs() {
        return knobs;
    }

    public AppDefault appDefault() {
        return appDefault;
    }

    /** The smallest pool its app starts with: the default of every target's minPoolSize. */
    public int minimumPool() {
        return minimumPool;
    }

    /** Whether its server forks workers that each build a pool, as many as the template's WEB_CONCURRENCY. */
    public boolean forks() {
        return this == RAILS;
    }

    /** Whether the size goes into the user's connection string (mode EnvFrom), rather than variables of its own. */
    public boolean inConnectionString() {
        return knobs.url();
    }

    /**
     * Whether the operator's agent resizes its pools in the running JVM (resize Live): HikariCP (through its MBeans)
     * and Agroal in Quarkus (through Quarkus' CDI container). The others read their size once, at start.
     */
    public boolean live() {
        return switch (this) {
            case SPRING_BOOT_HIKARI, QUARKUS_AGROAL, MICRONAUT_HIKARI, HIKARI_ENV, KEYCLOAK -> true;
            default -> false;
        };
    }

    /**
     * Whether it sizes a pooler (PgBouncer): its pool size is server connections per pod per database, and apps
     * behind it are sized by a policy of their own against its client limit (spec.database.pooler).
     */
    public boolean pooler() {
        return this == PGBOUNCER || this == PGBOUNCER_BITNAMI;
    }

    /** Whether its variable names take a datasource name (spec.injection.datasource). */
    public boolean named() {
        return knobs.defaultDatasource() != null;
    }
}
