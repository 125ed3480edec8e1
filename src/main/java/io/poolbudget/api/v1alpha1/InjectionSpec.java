package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;
import io.poolbudget.sizing.Limits;
import java.util.ArrayList;
import java.util.List;

/** How the computed pool size reaches the application. */
@ValidationRule(value = "has(self.preset) ? !has(self.maxPoolSizeEnv) : (has(self.maxPoolSizeEnv) || (has(self.mode) "
        + "&& self.mode == 'EnvFrom'))", message = InjectionSpec.ONE_OF_MESSAGE)
@ValidationRule(value = "!has(self.containers) || self.containers.all(c, size(c) <= 63)", message = "injection.containers names a container longer than 63 characters, which no pod can have")
@ValidationRule(value = "!has(self.minIdleEnv) || has(self.maxPoolSizeEnv)", message = "injection.minIdleEnv goes with injection.maxPoolSizeEnv; a preset names both variables")
@ValidationRule(value = "!has(self.maxPoolSizeEnv) || !(self.maxPoolSizeEnv " + EnvNames.RULE_PREFIX
        + "maxPoolSizeEnv.startsWith(p))", message = "injection.maxPoolSizeEnv" + EnvNames.MESSAGE_TAIL)
@ValidationRule(value = "!has(self.minIdleEnv) || !(self.minIdleEnv " + EnvNames.RULE_PREFIX
        + "minIdleEnv.startsWith(p))", message = "injection.minIdleEnv" + EnvNames.MESSAGE_TAIL)
@ValidationRule(value = "!has(self.datasource) || (has(self.preset) && self.preset in " + InjectionSpec.NAMED_CEL
        + ")", message = InjectionSpec.DATASOURCE_MESSAGE)
@ValidationRule(value = "!has(self.preset) || !(self.preset in " + InjectionSpec.URL_CEL
        + ") || !has(self.mode) || self.mode == 'EnvFrom'", message = InjectionSpec.URL_MODE_MESSAGE)
@ValidationRule(value = "!has(self.resize) || self.resize != 'Live' || ((!has(self.mode) || self.mode == 'Env') && "
        + "(!has(self.preset) || !(self.preset in " + InjectionSpec.URL_CEL
        + ")))", message = InjectionSpec.LIVE_MESSAGE)
@ValidationRule(value = "!has(self.resize) || self.resize != 'Live' || !has(self.preset) || !(self.preset in "
        + InjectionSpec.NOT_LIVE_CEL + ")", message = InjectionSpec.LIVE_POOL_MESSAGE)
public class InjectionSpec {
    public static final String LIVE_MESSAGE = "injection.resize may be Live only where the operator writes the size "
            + "as variables of a JVM app (mode Env): set injection.mode: Env, or leave resize at Rollout";
    public static final String LIVE_POOL_MESSAGE = "injection.resize may be Live only for pools the operator's agent "
            + "resizes in a running JVM (HikariCP; Agroal in Quarkus): this preset's app reads its size once, at start. "
            + "Leave resize at Rollout";
    /** The presets whose pools the agent cannot resize, as a CEL list ({@code PresetTableTest} checks it). */
    public static final String NOT_LIVE_CEL = "['quarkus-reactive', 'spring-r2dbc', 'ecto', 'gitea', 'mattermost', "
            + "'pgx', 'prisma', 'npgsql', 'rails', 'pgbouncer', 'pgbouncer-bitnami']";
    /** The presets whose variables take a datasource name, as a CEL list ({@code PresetTableTest} checks it). */
    public static final String NAMED_CEL = "['quarkus-agroal', 'micronaut-hikari', 'quarkus-reactive']";
    /** The presets whose size goes into a connection string, as a CEL list ({@code PresetTableTest} checks it). */
    public static final String URL_CEL = "['pgx', 'prisma', 'npgsql', 'rails']";
    public static final String ONE_OF_MESSAGE = "set exactly one of injection.preset or injection.maxPoolSizeEnv (or, "
            + "with mode EnvFrom, neither: your variables refer to $(POOLBUDGET_MAX_POOL_SIZE))";
    public static final String DATASOURCE_MESSAGE = "injection.datasource goes with a preset whose variables name a "
            + "datasource (quarkus-agroal, micronaut-hikari, quarkus-reactive); for others name the variables in maxPoolSizeEnv";
    public static final String URL_MODE_MESSAGE = "injection.mode must be EnvFrom (its default) for a preset that puts "
            + "the size in your connection string (pgx, prisma, npgsql, rails): the operator writes no variable of "
            + "the app's, your URL refers to $(POOLBUDGET_MAX_POOL_SIZE)";
    /** What kubectl explain shows for preset; {@code PresetTableTest} checks it against {@link Preset}. */
    public static final String PRESET_DESCRIPTION = "The app's stack: the operator writes its variables, or (pgx, "
            + "prisma, npgsql, rails) your connection string refers to the operator's value. spring-boot-hikari: "
            + "SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE, _MINIMUMIDLE (default 10). quarkus-agroal: "
            + "QUARKUS_DATASOURCE_[<DATASOURCE>_]JDBC_MAX_SIZE, _MIN_SIZE (default 50). micronaut-hikari: "
            + "DATASOURCES_<DATASOURCE|DEFAULT>_MAXIMUM_POOL_SIZE, _MINIMUM_IDLE (default 10). quarkus-reactive: "
            + "QUARKUS_DATASOURCE_[<DATASOURCE>_]REACTIVE_MAX_SIZE (default 20). spring-r2dbc: SPRING_R2DBC_POOL_MAX_SIZE, "
            + "_MIN_IDLE, _INITIAL_SIZE (default 10). hikari-env: "
            + "HIKARI_MAXIMUM_POOL_SIZE, HIKARI_MINIMUM_IDLE (default 10). keycloak: KC_DB_POOL_MAX_SIZE, _MIN_SIZE, "
            + "_INITIAL_SIZE (default 100; needs a pool of 2). ecto: POOL_SIZE (default 10). gitea: "
            + "GITEA__database__MAX_OPEN_CONNS, _MAX_IDLE_CONNS (default: no limit). mattermost: "
            + "MM_SQLSETTINGS_MAXOPENCONNS, _MAXIDLECONNS (default 300). pgx: pool_max_conns=$(POOLBUDGET_MAX_POOL_SIZE)"
            + " in the URL (default max(4, CPUs)). prisma: connection_limit= (default 2 x physical CPUs + 1). npgsql: "
            + "Maximum Pool Size= (default 100). rails: ?pool= in DATABASE_URL (default 5 per process). "
            + "pgbouncer: DEFAULT_POOL_SIZE, MAX_DB_CONNECTIONS, the server connections of each pooler pod per "
            + "database (default 20). pgbouncer-bitnami: PGBOUNCER_DEFAULT_POOL_SIZE, _MAX_DB_CONNECTIONS (default 20). "
            + "docs/reference/presets.md. Set this or maxPoolSizeEnv.";

    @JsonPropertyDescription(PRESET_DESCRIPTION)
    private Preset preset;

    @Pattern("^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    @Size(max = 63)
    @JsonPropertyDescription("The named datasource to size, for quarkus-agroal (QUARKUS_DATASOURCE_ORDERS_JDBC_MAX_SIZE "
            + "for orders) and micronaut-hikari (DATASOURCES_ORDERS_MAXIMUM_POOL_SIZE). Default: the default "
            + "datasource. A pod with several datasources on one database: one policy target per datasource is not "
            + "possible, use poolsPerPod.")
    private String datasource;

    @Pattern("^[A-Za-z_][A-Za-z0-9_]*$")
    @Size(max = Limits.NAME_LENGTH)
    @JsonPropertyDescription("Explicit name of the variable that carries the maximum pool size. Set this or preset.")
    private String maxPoolSizeEnv;

    @Pattern("^[A-Za-z_][A-Za-z0-9_]*$")
    @Size(max = Limits.NAME_LENGTH)
    @JsonPropertyDescription("Explicit name of the variable that carries the minimum idle connections, set equal to "
            + "the pool size: a static pool for HikariCP-like pools; for Go's database/sql (SetMaxIdleConns) a cap on "
            + "idle connections, not a floor. Optional with maxPoolSizeEnv.")
    private String minIdleEnv;

    @Size(max = Limits.CONTAINERS)
    @JsonPropertyDescription("Containers that receive the values. Default: every container of the pod; init "
            + "containers never.")
    private List<String> containers = new ArrayList<>();

    @JsonPropertyDescription("Env (the default for presets with variables): variables in the pod template (a change "
            + "rolls the pods). ConfigMap: the values in a ConfigMap of the operator's, each variable referring to its "
            + "key (env[].valueFrom.configMapKeyRef). EnvFrom (the default for pgx, prisma, npgsql, rails): the "
            + "operator writes only its ConfigMap, poolbudget-<policy>-<kind>-<workload> with the keys "
            + "POOLBUDGET_MAX_POOL_SIZE and POOLBUDGET_MIN_POOL_SIZE; your container reads it with envFrom and your "
            + "own variables refer to them, e.g. DATABASE_URL: postgres://app:$(DB_PASSWORD)@db/app?pool_max_conns="
            + "$(POOLBUDGET_MAX_POOL_SIZE). In both ConfigMap modes the ConfigMap's content hash is on the pod "
            + "template so that a change rolls the pods.")
    private InjectionMode mode;

    @Min(1)
    @Max(Limits.POOL_SIZE)
    @JsonPropertyDescription("The pool size a pod holds while the variable is absent: the application's own default. "
            + "Default: the preset's (docs/reference/presets.md: the highest of the versions it covers; no limit for "
            + "gitea; for pgx and prisma, derived from the node's CPUs, counted as no limit unless set here); 10 with "
            + "explicit variable names. The operator counts pods it has not sized yet at this size (a pod without a "
            + "limit blocks every raise until it is sized), and writes a first size at once only when it is lower; a "
            + "higher first size waits like any raise.")
    private Integer appDefaultPoolSize;

    @JsonPropertyDescription("Rollout (default): a new size rolls the pods. Live: running pods take a new size within "
            + "seconds, without a restart, through the operator's agent in the JVM (HikariCP pools: Spring Boot, "
            + "Micronaut, plain HikariCP; Agroal pools of Quarkus applications). The operator adds to the pod template, once: an init container that copies "
            + "the agent from the operator's image, two volumes (the agent; the pod's own annotation "
            + "live-size.poolbudget.io/<policy> through the downward API) and JAVA_TOOL_OPTIONS=-javaagent:... "
            + "(JDK_JAVA_OPTIONS where the container sets JAVA_TOOL_OPTIONS itself). A shrink counts as done only when "
            + "every pod's agent confirms its pools hold no more than the new size; a pod that does not within "
            + "liveDeadlineSeconds (no agent, no pool found) gets the size by a rollout. Mode Env only. "
            + "docs/live-resize.md.")
    private ResizeMode resize;

    @Min(5)
    @Max(3600)
    @JsonPropertyDescription("With resize: Live, how long a pod has to confirm a new size before its workload takes it "
            + "by a rollout instead. Default 60.")
    private Integer liveDeadlineSeconds;

    public ResizeMode getResize() { return resize; }
    public void setResize(ResizeMode resize) { this.resize = resize; }
    public Integer getLiveDeadlineSeconds() { return liveDeadlineSeconds; }
    public void setLiveDeadlineSeconds(Integer liveDeadlineSeconds) { this.liveDeadlineSeconds = liveDeadlineSeconds; }
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
    public String getDatasource() { return datasource; }
    public void setDatasource(String datasource) { this.datasource = datasource; }
    public void setMode(InjectionMode mode) { this.mode = mode; }
}
