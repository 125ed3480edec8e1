package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.poolbudget.api.v1alpha1.InjectionMode;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.Preset;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one policy writes into a workload, as partial objects for server-side apply: only the
 * fields it owns (its env entries, the shared marker label, its pool-size annotation and in ConfigMap
 * mode its config hash), never replicas or other variables. The names are the policy's own
 * ({@link Owner}), so two policies writing different variables coexist. The pool-size annotation is
 * on the pod template in both modes, so every pod says which pool size it was started with. What is read back of
 * it is {@link InjectionReads}'s. Pure: builds objects, talks to no API.
 */
public final class Injection {
    /** The operator's ConfigMap keys in mode EnvFrom: stable names a container reads with envFrom and refers to. */
    public static final String MAX_KEY = "POOLBUDGET_MAX_POOL_SIZE";
    public static final String MIN_KEY = "POOLBUDGET_MIN_POOL_SIZE";
    /** The keys of mode ConfigMap, whose variables refer to them one by one (unchanged, so no pod rolls for them). */
    static final String CONFIG_MAP_MAX_KEY = "maxPoolSize";
    static final String CONFIG_MAP_MIN_KEY = "minIdle";

    private Injection() {}

    /**
     * The variables a container gets from the policy: a preset's (named for spec.injection.datasource), or the explicit
     * ones; in mode EnvFrom, the operator's ConfigMap keys, which the container's own variables refer to. {@code minIdle}
     * and {@code initial} may be null; each carries the pool size (a static pool).
     */
    public record EnvNames(String maxPoolSize, String minIdle, String initial) {
        public static EnvNames of(InjectionSpec spec) {
            if (InjectionMode.of(spec) == InjectionMode.EnvFrom) {
                return new EnvNames(MAX_KEY, MIN_KEY, null);
            }
            if (spec.getPreset() == null) {
                return new EnvNames(spec.getMaxPoolSizeEnv(), spec.getMinIdleEnv(), null);
            }
            var knobs = spec.getPreset().knobs();
            return new EnvNames(knobs.named(knobs.max(), spec.getDatasource()),
                    knobs.named(knobs.min(), spec.getDatasource()), knobs.initial());
        }

        public List<String> all() {
            return java.util.stream.Stream.of(maxPoolSize, minIdle, initial).filter(Objects::nonNull).toList();
        }
    }

    /**
     * The pool size a pod may open while the variable is absent: the spec's, else the preset's (no limit counted as
     * {@link io.poolbudget.sizing.Limits#POOL_SIZE}), else HikariCP's.
     */
    public static int appDefault(InjectionSpec spec) {
        if (spec != null && spec.getAppDefaultPoolSize() != null) {
            return spec.getAppDefaultPoolSize();
        }
        return spec != null && spec.getPreset() != null ? spec.getPreset().appDefault().counted()
                : Preset.HIKARI_DEFAULT;
    }

    /** Whether the operator keeps the values in a ConfigMap of its own (modes ConfigMap and EnvFrom). */
    public static boolean viaConfigMap(InjectionSpec spec) {
        return InjectionMode.of(spec) != InjectionMode.Env;
    }

    /**
     * The partial workload to apply: the env entries (literal, or referencing the ConfigMap), the label, the size and
     * hash, and for a policy that draws on a DatabaseBudget ({@code budget} not null) that budget's name and the pools
     * per pod, so that its pods count against it for as long as they live.
     */
    public static HasMetadata workloadPatch(WorkloadKind kind, String namespace, String name, Owner owner,
            InjectionSpec spec,
            List<String> containers, int size, String budget, int poolsPerPod) {
        return workloadPatch(kind, namespace, name, owner, spec, containers, size, budget, poolsPerPod, null);
    }

    /**
     * Resize mode Live: the template as above at its start size ({@code size}, what a pod holds if its agent never
     * takes a published one) with the agent added, and the size the pods are to hold now on the workload itself.
     */
    public record Live(String image, PodSpec current, int size) {}

    public static HasMetadata workloadPatch(WorkloadKind kind, String namespace, String name, Owner owner,
            InjectionSpec spec,
            List<String> containers, int size, String budget, int poolsPerPod, Live live) {
        EnvNames names = EnvNames.of(spec);
        boolean viaConfigMap = viaConfigMap(spec);
        String cm = owner.configMapName(kind, name);
        List<Container> patched = new ArrayList<>();
        // in mode EnvFrom the containers read the ConfigMap themselves: no variable of the pod is the operator's
        for (String c : InjectionMode.of(spec) == InjectionMode.EnvFrom ? List.<String>of() : containers) {
            List<EnvVar> env = new ArrayList<>();
            env.add(envVar(names.maxPoolSize(), CONFIG_MAP_MAX_KEY, size, viaConfigMap ? cm : null));
            if (names.minIdle() != null) {
                env.add(envVar(names.minIdle(), CONFIG_MAP_MIN_KEY, size, viaConfigMap ? cm : null));
            }
            if (names.initial() != null) {
                env.add(envVar(names.initial(), CONFIG_MAP_MAX_KEY, size, viaConfigMap ? cm : null));
            }
            patched.add(new ContainerBuilder().withName(c).withEnv(env).build());
        }
        var meta = new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().addToLabels(Owner.SIZED_LABEL, "true")
                .addToAnnotations(owner.sizeAnnotation(), Integer.toString(size));
        if (viaConfigMap) {
            meta.addToAnnotations(owner.hashAnnotation(), dataHash(spec, size));
        }
        if (budget != null) {
            meta.addToAnnotations(owner.budgetAnnotation(), budget);
            if (poolsPerPod > 1) {
                meta.addToAnnotations(owner.poolsAnnotation(), Integer.toString(poolsPerPod));
            }
        }
        var templateBuilder = new PodTemplateSpecBuilder().withMetadata(meta.build());
        if (live != null) {
            var parts = LiveResize.parts(patched, live.current(), owner, live.image());
            templateBuilder.withNewSpec().withContainers(patched).withInitContainers(parts.init())
                    .withVolumes(parts.volumes()).endSpec();
        } else if (!patched.isEmpty()) {
            templateBuilder.withNewSpec().withContainers(patched).endSpec();
        }
        PodTemplateSpec template = templateBuilder.build();
        var objectMeta = new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name)
                .withNamespace(namespace);
        if (live != null) {
            objectMeta.addToAnnotations(LiveResize.annotation(owner), Integer.toString(live.size()));
        }
        return WorkloadShapes.partial(kind, objectMeta.build(), template);
    }

    /** Applying this (under the policy's field manager) gives up every field the policy owned in the workload. */
    public static HasMetadata release(WorkloadKind kind, String namespace, String name) {
        return WorkloadShapes.partial(kind, new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name)
                .withNamespace(namespace).build(), null);
    }

    /** The kind of a workload object (a cached object may lack its kind field). */
    public static WorkloadKind kindOf(HasMetadata workload) {
        WorkloadKind kind = WorkloadShapes.kind(workload);
        return kind == null ? WorkloadKind.Deployment : kind;
    }

    public static ConfigMap configMap(WorkloadKind kind, String namespace, String workload, Owner owner,
            InjectionSpec spec, int size) {
        return new ConfigMapBuilder().withNewMetadata().withName(owner.configMapName(kind, workload))
                .withNamespace(namespace)
                .addToLabels(Owner.SIZED_LABEL, "true").addToLabels(Owner.POLICY_LABEL, owner.key())
                .addToLabels("app.kubernetes.io/managed-by", "poolbudget-operator")
                .endMetadata().withData(configMapData(spec, size)).build();
    }

    static String maxKey(InjectionSpec spec) {
        return InjectionMode.of(spec) == InjectionMode.EnvFrom ? MAX_KEY : CONFIG_MAP_MAX_KEY;
    }

    private static Map<String, String> configMapData(InjectionSpec spec, int size) {
        boolean envFrom = InjectionMode.of(spec) == InjectionMode.EnvFrom;
        return new java.util.TreeMap<>(Map.of(envFrom ? MAX_KEY : CONFIG_MAP_MAX_KEY, Integer.toString(size),
                envFrom ? MIN_KEY : CONFIG_MAP_MIN_KEY, Integer.toString(size)));
    }

    /** The hash of the ConfigMap's content for this size, on the template so that a change rolls the pods. */
    static String dataHash(InjectionSpec spec, int size) {
        return Owner.hash(configMapData(spec, size).toString()).substring(0, 16);
    }

    private static EnvVar envVar(String name, String key, int size, String configMap) {
        var env = new EnvVarBuilder().withName(name);
        return configMap == null ? env.withValue(Integer.toString(size)).build()
                : env.withNewValueFrom().withNewConfigMapKeyRef(key, configMap, false).endValueFrom().build();
    }

}
