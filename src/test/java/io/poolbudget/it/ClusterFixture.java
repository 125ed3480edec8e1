package io.poolbudget.it;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Helpers the ITs share: installing the committed CRDs, and throwaway namespaces. */
public final class ClusterFixture {
    private ClusterFixture() {}

    public static Path committedCrds() {
        return Path.of(System.getProperty("poolbudget.committed.crds", "crds"));
    }

    /** Applies every CRD in crds/ (as a user would with kubectl apply) and waits until each is Established. */
    public static void installCrds(KubernetesClient client) {
        try (Stream<Path> files = Files.list(committedCrds())) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yml")).sorted().toList()) {
                CustomResourceDefinition crd;
                try (InputStream in = Files.newInputStream(file)) {
                    crd = client.apiextensions().v1().customResourceDefinitions().load(in).item();
                }
                client.resource(crd).forceConflicts().serverSideApply();
                awaitEstablished(client, crd.getMetadata().getName());
            }
            installArgoRolloutsCrd(client);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + committedCrds() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Argo Rollouts' own Rollout CRD (v1.9.2, from its repository's manifests/crds, gzipped), so that the operator
     * watches Rollouts and its writes meet Argo's real schema; Argo's controller does not run here.
     */
    static void installArgoRolloutsCrd(KubernetesClient client) throws IOException {
        try (InputStream in = new java.util.zip.GZIPInputStream(ClusterFixture.class
                .getResourceAsStream("/argo-rollouts/rollout-crd-v1.9.2.yaml.gz"))) {
            var crd = client.apiextensions().v1().customResourceDefinitions().load(in).item();
            crd.getMetadata().setAnnotations(null);
            client.resource(crd).forceConflicts().serverSideApply();
            awaitEstablished(client, crd.getMetadata().getName());
        }
    }

    private static void awaitEstablished(KubernetesClient client, String crd) {
        client.apiextensions().v1().customResourceDefinitions().withName(crd)
                .waitUntilCondition(c -> c.getStatus() != null && c.getStatus().getConditions() != null
                        && c.getStatus().getConditions().stream().anyMatch(k -> "Established".equals(k.getType())
                                && "True".equals(k.getStatus())),
                        30, TimeUnit.SECONDS);
    }

    /** A Deployment of pause containers; RollingUpdate maxSurge 1, maxUnavailable 0 (peak = replicas + 2). */
    public static Deployment deployment(String name, int replicas, Map<String, String> labels) {
        return new DeploymentBuilder()
                .withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .withNewSpec().withReplicas(replicas)
                .withNewSelector().withMatchLabels(Map.of("app", name)).endSelector()
                .withNewStrategy().withType("RollingUpdate").withNewRollingUpdate()
                .withNewMaxSurge(1).withNewMaxUnavailable(0).endRollingUpdate().endStrategy()
                .withNewTemplate().withNewMetadata().withLabels(Map.of("app", name)).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("registry.k8s.io/pause:3.10")
                .addNewEnv().withName("DATABASE_URL").withValue("jdbc:postgresql://db/app").endEnv()
                .endContainer().endSpec().endTemplate().endSpec().build();
    }

    /** Creates a namespace with a unique name starting with {@code prefix}. */
    public static String createNamespace(KubernetesClient client, String prefix) {
        String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name)
                .addToLabels("poolbudget.io/test", "true").endMetadata().build()).create();
        return name;
    }

    public static void deleteNamespaces(KubernetesClient client, List<String> names) {
        names.forEach(n -> client.namespaces().withName(n).delete());
    }
}
