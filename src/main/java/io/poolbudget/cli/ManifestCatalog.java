package io.poolbudget.cli;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.poolbudget.api.v1alpha1.WorkloadKind;
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

    private ManifestCatalog(List<Workload> workloads) {
        this.workloads = workloads;
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
        for (var doc : documents) {
            String ns = namespace(doc);
            List<Workloads.Scaler> here = scalers.stream().filter(s -> sameNamespace(ns, s.namespace()))
                    .map(Scoped::scaler).toList();
            try {
                switch (doc.kind()) {
                    case "Deployment" ->
                        workloads.add(Workloads.of(Manifests.bind(doc, Deployment.class, Manifests.LENIENT), here));
                    case "StatefulSet" ->
                        workloads.add(Workloads.of(Manifests.bind(doc, StatefulSet.class, Manifests.LENIENT), here));
                    default -> {
                    }
                }
            } catch (IllegalArgumentException e) {
                throw new Manifests.BadInput(doc.where() + ": " + e.getMessage());
            }
        }
        workloads.sort(Comparator.comparing(Workload::name));
        return new ManifestCatalog(workloads);
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
