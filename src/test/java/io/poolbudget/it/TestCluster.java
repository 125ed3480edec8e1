package io.poolbudget.it;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The clusters the integration tests run on, one per tier and test JVM, so that the tiers run side by side (one class
 * at a time on each cluster: {@link LaneLock}). {@code -Dcluster=kwok} (default): the local clusters that
 * {@code ./mvnw verify} starts from hack/cluster, {@code --for-its} for the *IT classes (KWOK nodes only) and
 * {@code --for-tests}, which the real node joins, for the *E2E classes; where the first is not running, the *IT
 * classes use the second too (and then wait for the *E2E classes). {@code -Dcluster=k3s}: k3s in Testcontainers for
 * both, skipped with a reason when no Docker engine answers (see {@link ClusterCondition}).
 */
public final class TestCluster {
    static final String K3S_IMAGE = "rancher/k3s:v1.34.1-k3s1";
    private static final String K3S = "k3s";

    private static final Map<String, TestCluster> clusters = new HashMap<>();

    private final Path kubeconfig;
    private final KubernetesClient client;

    private TestCluster(Path kubeconfig) throws IOException {
        this.kubeconfig = kubeconfig;
        this.client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build();
    }

    /** The cluster of the test class's tier: the real node's for an *E2E class, the KWOK-only one for the rest. */
    public static synchronized TestCluster of(Class<?> testClass) {
        String key = key(testClass);
        TestCluster cluster = clusters.get(key);
        if (cluster == null) {
            try {
                cluster = K3S.equals(key) ? startK3s() : local(Path.of(key));
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the test cluster's kubeconfig: " + e.getMessage(), e);
            }
            clusters.put(key, cluster);
        }
        return cluster;
    }

    /** Names the cluster a test class runs on: classes with the same key never run at the same time. */
    static String key(Class<?> testClass) {
        if (K3S.equals(System.getProperty("poolbudget.cluster"))) {
            return K3S;
        }
        Path realNode = Path.of(System.getProperty("poolbudget.kubeconfig", "build/cluster/test.kubeconfig"));
        Path its = Path.of(System.getProperty("poolbudget.its.kubeconfig", "build/cluster/its.kubeconfig"));
        boolean e2e = testClass.getSimpleName().endsWith("E2E");
        return (e2e || !Files.isReadable(its) ? realNode : its).toAbsolutePath().normalize().toString();
    }

    private static TestCluster local(Path kubeconfig) throws IOException {
        if (!Files.isReadable(kubeconfig)) {
            throw new IllegalStateException("no test cluster: " + kubeconfig + " is missing. Run the ITs with "
                    + "./mvnw verify (it starts the clusters), or start them first: hack/cluster/up.sh --for-its "
                    + "(and hack/cluster/up.sh --for-tests --real-node for the *E2E classes)");
        }
        return new TestCluster(kubeconfig);
    }

    @SuppressWarnings("resource") // lives as long as the JVM; Testcontainers' reaper removes it
    private static TestCluster startK3s() throws IOException {
        var k3s = new K3sContainer(DockerImageName.parse(K3S_IMAGE));
        k3s.start();
        Path kubeconfig = Files.createTempFile("poolbudget-k3s-", ".kubeconfig");
        Files.writeString(kubeconfig, k3s.getKubeConfigYaml());
        return new TestCluster(kubeconfig);
    }

    public Path kubeconfig() {
        return kubeconfig;
    }

    public KubernetesClient client() {
        return client;
    }
}
