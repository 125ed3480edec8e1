package io.poolbudget.planning;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.poolbudget.sizing.Disruption;
import io.poolbudget.sizing.IntOrPercent;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The PodDisruptionBudgets that bound a drain of a workload's pods, as the Eviction API finds them: those of its
 * namespace whose selector matches the labels of its pod template. The operator reads them from its informer, the
 * plan command from the manifests; both ask here.
 */
public final class Disruptions {
    private Disruptions() {}

    /** The budgets that select the pods of {@code template} (null: none) in {@code namespace}. */
    public static List<Disruption> selecting(Collection<PodDisruptionBudget> budgets, String namespace,
            io.fabric8.kubernetes.api.model.PodTemplateSpec template) {
        return selecting(budgets, namespace, template == null || template.getMetadata() == null
                || template.getMetadata().getLabels() == null ? Map.of() : template.getMetadata().getLabels());
    }

    /**
     * The budgets of {@code namespace} (a budget without one, from a manifest, matches any) whose selector matches
     * {@code podLabels}, by name. A budget without a selector selects no pod (policy/v1: an empty one selects all).
     */
    public static List<Disruption> selecting(Collection<PodDisruptionBudget> budgets, String namespace,
            Map<String, String> podLabels) {
        return budgets.stream()
                .filter(b -> b.getSpec() != null && b.getSpec().getSelector() != null
                        && (b.getMetadata().getNamespace() == null || namespace == null
                                || Objects.equals(namespace, b.getMetadata().getNamespace())))
                .filter(b -> {
                    try {
                        return Workloads.matches(b.getSpec().getSelector(), podLabels);
                    } catch (IllegalArgumentException e) {
                        return false; // an operator the API server does not accept either
                    }
                })
                .sorted(Comparator.comparing(b -> b.getMetadata().getName()))
                .map(Disruptions::of).filter(Objects::nonNull).toList();
    }

    /** One budget as sizing reads it; null for a value that is neither a count nor a percentage. */
    static Disruption of(PodDisruptionBudget b) {
        try {
            return new Disruption("PodDisruptionBudget/" + b.getMetadata().getName(),
                    value(b.getSpec().getMaxUnavailable()), value(b.getSpec().getMinAvailable()));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static IntOrPercent value(IntOrString v) {
        if (v == null || v.getIntVal() == null && v.getStrVal() == null) {
            return null;
        }
        return v.getIntVal() != null ? IntOrPercent.of(v.getIntVal()) : IntOrPercent.parse(v.getStrVal());
    }
}
