package io.poolbudget.cli;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.decide.WorkloadShapes;
import io.poolbudget.planning.Disruptions;
import io.poolbudget.planning.Workload;
import io.poolbudget.planning.WorkloadCatalog;
import io.poolbudget.planning.Workloads;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Workloads from manifest files. A manifest without a namespace matches any namespace, as files
 * applied with {@code kubectl apply -n} usually have none.
 */
final class ManifestCatalog implements WorkloadCatalog {
    private final List<Workload> workloads;
    private final java.util.Map<String, io.fabric8.kubernetes.api.model.PodTemplateSpec> templates;
    private final List<PodDisruptionBudget> disruptionBudgets;

    private ManifestCatalog(List<Workload> workloads,
            java.util.Map<String, io.fabric8.kubernetes.api.model.PodTemplateSpec> templates,
            List<PodDisruptionBudget> disruptionBudgets) {
        this.workloads = workloads;
        this.templates = templates;
        this.disruptionBudgets = disruptionBudgets;
    }

    /** The manifests' PodDisruptionBudgets that select the workload's pods, as the operator reads the cluster's. */
    @Override
    public List<io.poolbudget.sizing.Disruption> disruptions(Workload w) {
        return Disruptions.selecting(disruptionBudgets, w.namespace(), template(w));
    }

    /** The workload's pod template as its manifest gives it (null where it gives none). */
    io.fabric8.kubernetes.api.model.PodTemplateSpec template(Workload w) {
        return templates.get(w.namespace() + "/" + w.id());
    }

    static ManifestCatalog of(List<Manifests.Document> documents) throws Manifests.BadInput {
        record Scoped(String namespace, Workloads.Scaler scaler) {}
        List<Scoped> scalers = new ArrayList<>();
        for (var doc : documents) {
            Workloads.Scaler scaler;
            try {
                scaler = switch (doc.kind()) {
                    case "HorizontalPodAutoscaler" ->
                        Workloads.scaler(Manifests.bind(doc, HorizontalPodAutoscaler.class,
                                Manifests.LENIENT));
                    case "ScaledObject" -> kedaScaler(doc);
                    default -> null;
                };
            } catch (IllegalArgumentException e) {
                throw new Manifests.BadInput(doc.where() + ": " + e.getMessage());
            }
            if (scaler != null) {
                scalers.add(new Scoped(namespace(doc), scaler));
            }
        }
        List<Workload> workloads = new ArrayList<>();
        List<PodDisruptionBudget> budgets = new ArrayList<>();
        java.util.Map<String, io.fabric8.kubernetes.api.model.PodTemplateSpec> templates = new java.util.HashMap<>();
        for (var doc : documents) {
            String ns = namespace(doc);
            List<Workloads.Scaler> here = scalers.stream().filter(s -> sameNamespace(ns, s.namespace()))
                    .map(Scoped::scaler).toList();
            try {
                WorkloadKind kind = WorkloadShapes.named(doc.kind());
                io.fabric8.kubernetes.api.model.HasMetadata o = kind != null
                        ? Manifests.bind(doc, WorkloadShapes.type(kind), Manifests.LENIENT)
                        : "PodDisruptionBudget".equals(doc.kind())
                                ? Manifests.bind(doc, PodDisruptionBudget.class, Manifests.LENIENT) : null;
                if (o instanceof PodDisruptionBudget pdb) {
                    budgets.add(pdb);
                } else if (o != null) {
                    add(WorkloadShapes.workload(o, here), WorkloadShapes.template(o), workloads, templates);
                }
            } catch (IllegalArgumentException e) {
                throw new Manifests.BadInput(doc.where() + ": " + e.getMessage());
            }
        }
        workloads.sort(Comparator.comparing(Workload::name));
        return new ManifestCatalog(workloads, templates, budgets);
    }

    private static void add(Workload w, io.fabric8.kubernetes.api.model.PodTemplateSpec template,
            List<Workload> workloads,
            java.util.Map<String, io.fabric8.kubernetes.api.model.PodTemplateSpec> templates) {
        workloads.add(w);
        if (template != null) {
            templates.put(w.namespace() + "/" + w.id(), template);
        }
    }

    /** KEDA's ScaledObject: it makes an HPA in the cluster; offline we read its maximum directly. */
    private static Workloads.Scaler kedaScaler(Manifests.Document doc) {
        var ref = doc.node().path("spec").path("scaleTargetRef");
        WorkloadKind kind = Workloads.kind(ref.path("kind").asText("Deployment"));
        if (kind == null || ref.path("name").asText("").isEmpty()) {
            return null;
        }
        return new Workloads.Scaler("ScaledObject/" + doc.name(), kind, ref.path("name").asText(),
                doc.node().path("spec").path("maxReplicaCount").asInt(100));
    }

    private static String namespace(Manifests.Document doc) {
        String ns = doc.node().path("metadata").path("namespace").asText("");
        return ns.isEmpty() ? null : ns;
    }

    private static boolean sameNamespace(String a, String b) {
        return a == null || b == null || Objects.equals(a, b);
    }

    @Override
    public Optional<Workload> find(WorkloadKind kind, String namespace, String name) {
        return workloads.stream().filter(w -> w.kind() == kind && w.name().equals(name)
                && sameNamespace(namespace, w.namespace())).findFirst();
    }

    @Override
    public List<Workload> select(WorkloadKind kind, String namespace, LabelSelector selector) {
        return workloads.stream().filter(w -> w.kind() == kind && sameNamespace(namespace, w.namespace())
                && Workloads.matches(selector, w.labels())).toList();
    }
}
