package io.poolbudget.decide;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.poolbudget.api.v1alpha1.InjectionMode;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.planning.Owner;
import java.util.List;
import java.util.Objects;

/**
 * What the operator reads back of what a policy injects ({@link Injection} writes it): which containers it writes
 * into, the pool size a pod or template was started with or carries now, what tells revisions apart, and a variable the
 * workload sets itself through valueFrom (a conflict to report). Pure: reads objects, talks to no API.
 */
public final class InjectionReads {
    private InjectionReads() {}

    /**
     * The pool size a pod (or template) was started with: our annotation, else the variable's literal value in
     * the first chosen container, else null (not known from the spec: the app's default, or a value the user
     * sets through valueFrom).
     */
    public static Integer heldSize(Owner owner, InjectionSpec spec, ObjectMeta meta, PodSpec pod,
            List<String> containers) {
        String annotated = Owner.annotation(meta, owner.sizeAnnotation());
        if (annotated != null) {
            return parse(annotated);
        }
        if (spec == null || pod == null || pod.getContainers() == null || pod.getContainers().isEmpty()) {
            return null;
        }
        String container = containers.isEmpty() ? pod.getContainers().get(0).getName() : containers.get(0);
        String value = envValue(pod, container, Injection.EnvNames.of(spec).maxPoolSize());
        return value == null || value.startsWith("configmap:") ? null : parse(value);
    }

    /**
     * A variable the operator would write that the workload already sets through valueFrom (a Secret, a field
     * ref, another ConfigMap): server-side apply cannot turn that into our value, so it is a conflict to report.
     * Null when there is none.
     */
    public static String foreignValueFrom(Owner owner, WorkloadKind kind, String workload, InjectionSpec spec,
            PodSpec pod,
            List<String> containers) {
        if (pod == null || pod.getContainers() == null) {
            return null;
        }
        if (InjectionMode.of(spec) == InjectionMode.EnvFrom) {
            return EnvFromCheck.problem(owner.configMapName(kind, workload), pod, containers, spec);
        }
        String ours = owner.configMapName(kind, workload);
        for (Container c : pod.getContainers()) {
            if (!containers.contains(c.getName()) || c.getEnv() == null) {
                continue;
            }
            for (EnvVar e : c.getEnv()) {
                if (e.getValueFrom() == null || !Injection.EnvNames.of(spec).all().contains(e.getName())) {
                    continue;
                }
                var ref = e.getValueFrom().getConfigMapKeyRef();
                boolean oursToo = InjectionMode.of(spec) == InjectionMode.ConfigMap && ref != null
                        && ours.equals(ref.getName());
                if (!oursToo) {
                    return "container '" + c.getName() + "' sets " + e.getName()
                            + " through valueFrom, which the operator "
                            + "cannot replace with its value: remove that valueFrom from your manifest (the operator then "
                            + "sets the variable), or name other variables in spec.injection";
                }
            }
        }
        return null;
    }

    /** The containers to write into; throws naming the missing one when a listed container does not exist. */
    public static List<String> containers(InjectionSpec spec, PodSpec pod) {
        List<String> present = pod == null ? List.of() : pod.getContainers().stream().map(Container::getName).toList();
        if (spec.getContainers() == null || spec.getContainers().isEmpty()) {
            return present;
        }
        for (String wanted : spec.getContainers()) {
            if (!present.contains(wanted)) {
                throw new IllegalArgumentException("spec.injection.containers names '" + wanted
                        + "', which this workload does not have (it has " + present + ")");
            }
        }
        return List.copyOf(spec.getContainers());
    }

    /** The pool size the pod template carries now: null when any chosen container lacks it. */
    public static Integer appliedSize(Owner owner, InjectionSpec spec, PodTemplateSpec template,
            List<String> containers,
            ConfigMap cm) {
        if (Injection.viaConfigMap(spec)) {
            // what the pods' template was rolled with: the ConfigMap's size only where the template carries the hash of
            // exactly that content (a ConfigMap written whose template write was refused is not applied)
            String value = cm == null || cm.getData() == null ? null : cm.getData().get(Injection.maxKey(spec));
            Integer size = parse(value);
            String rolled = revision(owner, spec, template, containers);
            return size == null || rolled == null || !rolled.equals(Injection.dataHash(spec, size)) ? null : size;
        }
        Integer max = null;
        for (String c : containers) {
            Integer v = parse(envValue(template.getSpec(), c, Injection.EnvNames.of(spec).maxPoolSize()));
            if (v == null) {
                return null;
            }
            max = max == null ? v : Math.max(max, v);
        }
        return max;
    }

    /**
     * What tells revisions apart for pool sizing: the size variable of the first chosen container
     * (Env) or the config-hash annotation (ConfigMap). Pods whose value differs from the template's
     * belong to an older revision and may hold a different pool.
     */
    public static String revision(Owner owner, InjectionSpec spec, PodTemplateSpec template, List<String> containers) {
        if (Injection.viaConfigMap(spec)) {
            return Owner.annotation(template.getMetadata(), owner.hashAnnotation());
        }
        return containers.isEmpty() ? null
                : envValue(template.getSpec(), containers.get(0), Injection.EnvNames.of(spec).maxPoolSize());
    }

    public static String podRevision(Owner owner, InjectionSpec spec, ObjectMeta podMeta, PodSpec podSpec,
            List<String> containers) {
        return revision(owner, spec, new PodTemplateSpec(podMeta, podSpec), containers);
    }

    private static String envValue(PodSpec pod, String container, String variable) {
        EnvVar e = envEntry(pod, container, variable);
        return e == null ? null : e.getValue() != null ? e.getValue()
                : e.getValueFrom() != null && e.getValueFrom().getConfigMapKeyRef() != null
                        ? "configmap:" + e.getValueFrom().getConfigMapKeyRef().getName() : null;
    }

    /** The container's own entry for the variable (its env, not envFrom), or null. */
    static EnvVar envEntry(PodSpec pod, String container, String variable) {
        if (pod == null || pod.getContainers() == null) {
            return null;
        }
        return pod.getContainers().stream().filter(c -> Objects.equals(c.getName(), container)).findFirst()
                .flatMap(c -> c.getEnv() == null ? java.util.Optional.empty()
                        : c.getEnv().stream().filter(e -> variable.equals(e.getName())).findFirst())
                .orElse(null);
    }

    private static Integer parse(String value) {
        try {
            return value == null ? null : Integer.valueOf(value.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
