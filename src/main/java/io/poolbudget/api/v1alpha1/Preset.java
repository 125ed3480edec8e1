package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Frameworks whose pool settings the operator knows by environment variable. */
public enum Preset {
    @JsonProperty("spring-boot-hikari") SPRING_BOOT_HIKARI("SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE", "SPRING_DATASOURCE_HIKARI_MINIMUMIDLE"),
    @JsonProperty("quarkus-agroal") QUARKUS_AGROAL("QUARKUS_DATASOURCE_JDBC_MAX_SIZE", "QUARKUS_DATASOURCE_JDBC_MIN_SIZE"),
    @JsonProperty("micronaut-hikari") MICRONAUT_HIKARI("DATASOURCES_DEFAULT_MAXIMUM_POOL_SIZE", "DATASOURCES_DEFAULT_MINIMUM_IDLE"),
    @JsonProperty("hikari-env") HIKARI_ENV("HIKARI_MAXIMUM_POOL_SIZE", "HIKARI_MINIMUM_IDLE");

    private final String maxPoolSizeEnv;
    private final String minIdleEnv;

    Preset(String maxPoolSizeEnv, String minIdleEnv) {
        this.maxPoolSizeEnv = maxPoolSizeEnv;
        this.minIdleEnv = minIdleEnv;
    }

    public String maxPoolSizeEnv() { return maxPoolSizeEnv; }

    public String minIdleEnv() { return minIdleEnv; }
}
