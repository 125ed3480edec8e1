package io.poolbudget.it;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
                client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
                        .waitUntilCondition(c -> c.getStatus() != null && c.getStatus().getConditions().stream()
                                .anyMatch(k -> "Established".equals(k.getType()) && "True".equals(k.getStatus())),
                                30, TimeUnit.SECONDS);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + committedCrds() + ": " + e.getMessage(), e);
        }
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
