package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.ArrayList;
import java.util.List;

/** How the computed pool size reaches the application. */
@ValidationRule(value = "has(self.preset) != has(self.maxPoolSizeEnv)",
        message = "set exactly one of injection.preset or injection.maxPoolSizeEnv")
@ValidationRule(value = "!has(self.minIdleEnv) || has(self.maxPoolSizeEnv)",
        message = "injection.minIdleEnv goes with injection.maxPoolSizeEnv; a preset names both variables")
public class InjectionSpec {

    @JsonPropertyDescription("Environment variable names of a framework: spring-boot-hikari "
            + "(SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE, SPRING_DATASOURCE_HIKARI_MINIMUMIDLE), quarkus-agroal "
            + "(QUARKUS_DATASOURCE_JDBC_MAX_SIZE, QUARKUS_DATASOURCE_JDBC_MIN_SIZE), micronaut-hikari "
            + "(DATASOURCES_DEFAULT_MAXIMUM_POOL_SIZE, DATASOURCES_DEFAULT_MINIMUM_IDLE) or hikari-env "
            + "(HIKARI_MAXIMUM_POOL_SIZE, HIKARI_MINIMUM_IDLE). Set this or maxPoolSizeEnv.")
    private Preset preset;

    @Pattern("^[A-Za-z_][A-Za-z0-9_]*$")
    @JsonPropertyDescription("Explicit name of the variable that carries the maximum pool size. Set this or preset.")
    private String maxPoolSizeEnv;

    @Pattern("^[A-Za-z_][A-Za-z0-9_]*$")
    @JsonPropertyDescription("Explicit name of the variable that carries the minimum idle connections, set equal to "
            + "the pool size (a static pool). Optional with maxPoolSizeEnv.")
    private String minIdleEnv;

    @JsonPropertyDescription("Containers that receive the values. Default: every container of the pod; init "
            + "containers never.")
    private List<String> containers = new ArrayList<>();

    @Default("Env")
    @JsonPropertyDescription("Env: variables in the pod template (a change rolls the pods). ConfigMap: the values in "
            + "a ConfigMap the containers read through envFrom, with its content hash on the pod template so that "
            + "a change rolls the pods.")
    private InjectionMode mode = InjectionMode.Env;

    public Preset getPreset() { return preset; }
    public void setPreset(Preset preset) { this.preset = preset; }
    public String getMaxPoolSizeEnv() { return maxPoolSizeEnv; }
    public void setMaxPoolSizeEnv(String maxPoolSizeEnv) { this.maxPoolSizeEnv = maxPoolSizeEnv; }
    public String getMinIdleEnv() { return minIdleEnv; }
    public void setMinIdleEnv(String minIdleEnv) { this.minIdleEnv = minIdleEnv; }
    public List<String> getContainers() { return containers; }
    public void setContainers(List<String> containers) { this.containers = containers; }
    public InjectionMode getMode() { return mode; }
    public void setMode(InjectionMode mode) { this.mode = mode; }
}
