package io.poolbudget.planning;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStrategy;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.sizing.IntOrPercent;
import io.poolbudget.sizing.Rollout;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Reads workload facts from Kubernetes objects, with Kubernetes' own defaults. */
public final class Workloads {
    private Workloads() {}

    /** A scaler's target and maximum: an HPA (KEDA makes one too), or a KEDA ScaledObject in offline manifests. */
    public record Scaler(String id, WorkloadKind targetKind, String targetName, int maxReplicas) {}

    public static Workload of(Deployment d, List<Scaler> scalers) {
        var meta = d.getMetadata();
        int replicas = d.getSpec() == null || d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
        var strategy = d.getSpec() == null ? null : d.getSpec().getStrategy();
        var shutdown = d.getSpec() == null ? Shutdown.NONE
                : Shutdown.of(d.getSpec().getTemplate(), d.getSpec().getMinReadySeconds());
        return withScaler(WorkloadKind.Deployment, meta.getNamespace(), meta.getName(), meta.getLabels(), replicas,
                rollout(strategy), scalers, shutdown, workers(d.getSpec() == null ? null : d.getSpec().getTemplate()),
                clientLimit(d.getSpec() == null ? null : d.getSpec().getTemplate()));
    }

    public static Workload of(StatefulSet s, List<Scaler> scalers) {
        var meta = s.getMetadata();
        int replicas = s.getSpec() == null || s.getSpec().getReplicas() == null ? 1 : s.getSpec().getReplicas();
        var shutdown = s.getSpec() == null ? Shutdown.NONE
                : Shutdown.of(s.getSpec().getTemplate(), s.getSpec().getMinReadySeconds());
        return withScaler(WorkloadKind.StatefulSet, meta.getNamespace(), meta.getName(), meta.getLabels(), replicas,
                new Rollout.Ordered(), scalers, shutdown,
                workers(s.getSpec() == null ? null : s.getSpec().getTemplate()),
                clientLimit(s.getSpec() == null ? null : s.getSpec().getTemplate()));
    }

    static Workload withScaler(WorkloadKind kind, String namespace, String name, Map<String, String> labels,
            int replicas, Rollout rollout, List<Scaler> scalers, Shutdown shutdown, Integer workers,
            Integer clientLimit) {
        var scaler = scalers.stream().filter(s -> s.targetKind() == kind && s.targetName().equals(name))
                .min((a, b) -> a.id().compareTo(b.id())).orElse(null);
        return new Workload(kind, namespace, name, labels == null ? Map.of() : Map.copyOf(labels), replicas, rollout,
                scaler == null ? null : scaler.maxReplicas(), scaler == null ? null : scaler.id(), shutdown, workers,
                clientLimit);
    }

    /**
     * The most workers any container forks by its literal {@link Workload#WORKERS_ENV} (a whole number from 1 to
     * {@link io.poolbudget.sizing.Limits#POOLS_PER_POD}); {@link Workload#WORKERS_UNKNOWN} where one sets it to what
     * cannot be read from the spec; null where none sets it.
     */
    static Integer workers(io.fabric8.kubernetes.api.model.PodTemplateSpec template) {
        return template == null ? null : workers(template.getSpec());
    }

    /** The same, of a pod's own spec (a pod of an older template may fork another number than the template now). */
    public static Integer workers(io.fabric8.kubernetes.api.model.PodSpec pod) {
        if (pod == null || pod.getContainers() == null) {
            return null;
        }
        Integer most = null;
        for (var c : pod.getContainers()) {
            for (var e : c.getEnv() == null ? List.<io.fabric8.kubernetes.api.model.EnvVar>of() : c.getEnv()) {
                if (!Workload.WORKERS_ENV.equals(e.getName())) {
                    continue;
                }
                String v = e.getValue() == null ? "" : e.getValue().trim();
                // set, but not to a number we can read (valueFrom, "auto" = the node's CPUs, a reference): unknown
                int n = v.matches("[1-9][0-9]{0,3}") ? Integer.parseInt(v) : Workload.WORKERS_UNKNOWN;
                n = n > io.poolbudget.sizing.Limits.POOLS_PER_POD ? Workload.WORKERS_UNKNOWN : n;
                most = most == null || n == Workload.WORKERS_UNKNOWN ? Integer.valueOf(n)
                        : most == Workload.WORKERS_UNKNOWN ? most : Math.max(most, n);
            }
        }
        return most;
    }

    /**
     * A pooler's client limit from its template: the literal {@link io.poolbudget.api.v1alpha1.Preset#CLIENT_LIMIT_ENV}
     * of its first container that sets one (a whole number up to {@link io.poolbudget.sizing.Limits#CONNECTIONS});
     * {@link Workload#WORKERS_UNKNOWN} where it is set to what the spec does not tell; null where none sets it.
     */
    static Integer clientLimit(io.fabric8.kubernetes.api.model.PodTemplateSpec template) {
        if (template == null || template.getSpec() == null || template.getSpec().getContainers() == null) {
            return null;
        }
        for (var c : template.getSpec().getContainers()) {
            for (var e : c.getEnv() == null ? List.<io.fabric8.kubernetes.api.model.EnvVar>of() : c.getEnv()) {
                if (io.poolbudget.api.v1alpha1.Preset.CLIENT_LIMIT_ENV.contains(e.getName())) {
                    String v = e.getValue() == null ? "" : e.getValue().trim();
                    return v.matches("[1-9][0-9]{0,8}") && Long.parseLong(v) <= io.poolbudget.sizing.Limits.CONNECTIONS
                            ? Integer.valueOf(v) : Integer.valueOf(Workload.WORKERS_UNKNOWN);
                }
            }
        }
        return null;
    }

    /** The workload an HPA scales, if it is a Deployment or StatefulSet. */
    public static Scaler scaler(HorizontalPodAutoscaler hpa) {
        var ref = hpa.getSpec() == null ? null : hpa.getSpec().getScaleTargetRef();
        if (ref == null || ref.getName() == null || hpa.getSpec().getMaxReplicas() == null) {
            return null;
        }
        Integer min = hpa.getSpec().getMinReplicas();
        if (min != null && min > hpa.getSpec().getMaxReplicas()) {
            throw new IllegalArgumentException("spec.minReplicas (" + min + ") must not exceed spec.maxReplicas ("
                    + hpa.getSpec().getMaxReplicas() + ")");
        }
        WorkloadKind kind = kind(ref.getKind());
        return kind == null ? null : new Scaler("HorizontalPodAutoscaler/" + hpa.getMetadata().getName(), kind,
                ref.getName(), hpa.getSpec().getMaxReplicas());
    }

    /** The kind an HPA's or a ScaledObject's scaleTargetRef names, where a target may be of it. */
    public static WorkloadKind kind(String kind) {
        return "Deployment".equals(kind) ? WorkloadKind.Deployment
                : "StatefulSet".equals(kind) ? WorkloadKind.StatefulSet
                        : "Rollout".equals(kind) ? WorkloadKind.Rollout : null;
    }

    /** Deployment strategy with the API's defaults: RollingUpdate, 25% surge, 25% unavailable. */
    public static Rollout rollout(DeploymentStrategy strategy) {
        if (strategy != null && "Recreate".equals(strategy.getType())) {
            return new Rollout.Recreate();
        }
        var rolling = strategy == null ? null : strategy.getRollingUpdate();
        if (rolling == null) {
            return Rollout.RollingUpdate.DEFAULT;
        }
        IntOrPercent surge = amount(rolling.getMaxSurge(), "maxSurge");
        IntOrPercent unavailable = amount(rolling.getMaxUnavailable(), "maxUnavailable");
        // The API server's own rules, so that plan refuses what kubectl apply would.
        if (unavailable.percent() && unavailable.value() > 100) {
            throw new IllegalArgumentException(
                    "spec.strategy.rollingUpdate.maxUnavailable: must not be above 100%, got "
                            + unavailable.value() + "%");
        }
        if (surge.value() == 0 && unavailable.value() == 0) {
            throw new IllegalArgumentException("spec.strategy.rollingUpdate: maxSurge and maxUnavailable must not both "
                    + "be 0 (the Deployment could never replace a pod); set one of them above 0");
        }
        return new Rollout.RollingUpdate(surge, unavailable);
    }

    private static IntOrPercent amount(IntOrString value, String field) {
        return amount(value, "spec.strategy.rollingUpdate." + field, 25);
    }

    /** An int-or-percent field with its default percentage; throws naming {@code field}. */
    static IntOrPercent amount(IntOrString value, String field, int defaultPercent) {
        if (value == null || value.getValue() == null) {
            return IntOrPercent.percent(defaultPercent);
        }
        try {
            return value.getValue() instanceof Integer i ? IntOrPercent.of(i) : IntOrPercent.parse(value.getStrVal());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
        }
    }

    /** A selector as kubectl prints one: {@code app=web,tier in (a,b),!legacy}. */
    public static String describe(LabelSelector selector) {
        List<String> parts = new java.util.ArrayList<>();
        if (selector.getMatchLabels() != null) {
            new java.util.TreeMap<>(selector.getMatchLabels()).forEach((k, v) -> parts.add(k + "=" + v));
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                String values = r.getValues() == null ? "" : String.join(",", r.getValues());
                parts.add(switch (String.valueOf(r.getOperator())) {
                    case "In" -> r.getKey() + " in (" + values + ")";
                    case "NotIn" -> r.getKey() + " notin (" + values + ")";
                    case "DoesNotExist" -> "!" + r.getKey();
                    default -> r.getKey();
                });
            }
        }
        return parts.isEmpty() ? "everything" : String.join(",", parts);
    }

    /** Kubernetes label-selector semantics; an empty selector matches everything. */
    public static boolean matches(LabelSelector selector, Map<String, String> labels) {
        Map<String, String> have = labels == null ? Map.of() : labels;
        if (selector.getMatchLabels() != null) {
            for (var e : selector.getMatchLabels().entrySet()) {
                if (!Objects.equals(have.get(e.getKey()), e.getValue())) {
                    return false;
                }
            }
        }
        if (selector.getMatchExpressions() != null) {
            for (int i = 0; i < selector.getMatchExpressions().size(); i++) {
                if (!matches(i, selector.getMatchExpressions().get(i), have)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean matches(int index, LabelSelectorRequirement r, Map<String, String> labels) {
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        String value = labels.get(r.getKey());
        return switch (String.valueOf(r.getOperator())) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> labels.containsKey(r.getKey());
            case "DoesNotExist" -> !labels.containsKey(r.getKey());
            default -> throw new IllegalArgumentException("matchExpressions[" + index + "].operator '" + r.getOperator()
                    + "' is not one of In, NotIn, Exists, DoesNotExist: use one of those");
        };
    }
}
