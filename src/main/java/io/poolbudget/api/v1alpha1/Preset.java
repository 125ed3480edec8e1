package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Frameworks whose pool settings the operator knows by environment variable. */
public enum Preset {
    @JsonProperty("spring-boot-hikari")
    SPRING_BOOT_HIKARI("SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE", "SPRING_DATASOURCE_HIKARI_MINIMUMIDLE",
            Preset.HIKARI_DEFAULT), @JsonProperty("quarkus-agroal")
    QUARKUS_AGROAL("QUARKUS_DATASOURCE_JDBC_MAX_SIZE", "QUARKUS_DATASOURCE_JDBC_MIN_SIZE",
            20), @JsonProperty("micronaut-hikari")
    MICRONAUT_HIKARI("DATASOURCES_DEFAULT_MAXIMUM_POOL_SIZE", "DATASOURCES_DEFAULT_MINIMUM_IDLE",
            Preset.HIKARI_DEFAULT), @JsonProperty("hikari-env")
    HIKARI_ENV("HIKARI_MAXIMUM_POOL_SIZE", "HIKARI_MINIMUM_IDLE", Preset.HIKARI_DEFAULT);

    /** HikariCP's maximumPoolSize when none is configured; also assumed for explicit variable names. */
    public static final int HIKARI_DEFAULT = 10;

    private final String maxPoolSizeEnv;
    private final String minIdleEnv;
    private final int defaultPoolSize;

    Preset(String maxPoolSizeEnv, String minIdleEnv, int defaultPoolSize) {
        this.maxPoolSizeEnv = maxPoolSizeEnv;
        this.minIdleEnv = minIdleEnv;
        this.defaultPoolSize = defaultPoolSize;
    }

    /** The framework's own maximum pool size when the variable is absent (Agroal 20, HikariCP 10). */
    public int defaultPoolSize() {
        return defaultPoolSize;
    }

    public String maxPoolSizeEnv() {
        return maxPoolSizeEnv;
    }

    public String minIdleEnv() {
        return minIdleEnv;
    }
}
