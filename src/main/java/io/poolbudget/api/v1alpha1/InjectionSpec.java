package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;
import io.poolbudget.sizing.Limits;
import java.util.ArrayList;
import java.util.List;

/** How the computed pool size reaches the application. */
@ValidationRule(value = "has(self.preset) != has(self.maxPoolSizeEnv)", message = "set exactly one of injection.preset or injection.maxPoolSizeEnv")
@ValidationRule(value = "!has(self.containers) || self.containers.all(c, size(c) <= 63)", message = "injection.containers names a container longer than 63 characters, which no pod can have")
@ValidationRule(value = "!has(self.minIdleEnv) || has(self.maxPoolSizeEnv)", message = "injection.minIdleEnv goes with injection.maxPoolSizeEnv; a preset names both variables")
@ValidationRule(value = "!has(self.maxPoolSizeEnv) || !(self.maxPoolSizeEnv " + EnvNames.RULE_PREFIX
        + "maxPoolSizeEnv.startsWith(p))", message = "injection.maxPoolSizeEnv" + EnvNames.MESSAGE_TAIL)
@ValidationRule(value = "!has(self.minIdleEnv) || !(self.minIdleEnv " + EnvNames.RULE_PREFIX
        + "minIdleEnv.startsWith(p))", message = "injection.minIdleEnv" + EnvNames.MESSAGE_TAIL)
public class InjectionSpec {

    @JsonPropertyDescription("Environment variable names of a framework: spring-boot-hikari "
            + "(SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE, SPRING_DATASOURCE_HIKARI_MINIMUMIDLE), quarkus-agroal "
            + "(QUARKUS_DATASOURCE_JDBC_MAX_SIZE, QUARKUS_DATASOURCE_JDBC_MIN_SIZE), micronaut-hikari "
            + "(DATASOURCES_DEFAULT_MAXIMUM_POOL_SIZE, DATASOURCES_DEFAULT_MINIMUM_IDLE) or hikari-env "
            + "(HIKARI_MAXIMUM_POOL_SIZE, HIKARI_MINIMUM_IDLE). Set this or maxPoolSizeEnv.")
    private Preset preset;

    @Pattern("^[A-Za-z_][A-Za-z0-9_]*$")
    @Size(max = Limits.NAME_LENGTH)
    @JsonPropertyDescription("Explicit name of the variable that carries the maximum pool size. Set this or preset.")
    private String maxPoolSizeEnv;

    @Pattern("^[A-Za-z_][A-Za-z0-9_]*$")
    @Size(max = Limits.NAME_LENGTH)
    @JsonPropertyDescription("Explicit name of the variable that carries the minimum idle connections, set equal to "
            + "the pool size (a static pool). Optional with maxPoolSizeEnv.")
    private String minIdleEnv;

    @Size(max = Limits.CONTAINERS)
    @JsonPropertyDescription("Containers that receive the values. Default: every container of the pod; init "
            + "containers never.")
    private List<String> containers = new ArrayList<>();

    @Default("Env")
    @JsonPropertyDescription("Env: variables in the pod template (a change rolls the pods). ConfigMap: the values in "
            + "a ConfigMap of the operator's, each variable referring to its key (env[].valueFrom.configMapKeyRef), "
            + "with the ConfigMap's content hash on the pod template so that a change rolls the pods.")
    private InjectionMode mode = InjectionMode.Env;

    @Min(1)
    @Max(Limits.POOL_SIZE)
    @JsonPropertyDescription("The pool size a pod holds while the variable is absent: the application's own default. "
            + "Default: the preset's (10 for HikariCP, 20 for Agroal); 10 with explicit variable names. The operator "
            + "counts pods it has not sized yet at this size, and writes a first size at once only when it is lower; "
            + "a higher first size waits like any raise.")
    private Integer appDefaultPoolSize;

    public Integer getAppDefaultPoolSize() { return appDefaultPoolSize; }
    public void setAppDefaultPoolSize(Integer appDefaultPoolSize) { this.appDefaultPoolSize = appDefaultPoolSize; }
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
