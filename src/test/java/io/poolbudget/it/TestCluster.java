package io.poolbudget.it;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The cluster the integration tests run on, one per test JVM.
 * {@code -Dcluster=kwok} (default): the local cluster that {@code ./mvnw verify} starts from
 * hack/cluster. {@code -Dcluster=k3s}: k3s in Testcontainers, skipped with a reason when no
 * Docker engine answers (see {@link ClusterCondition}).
 */
public final class TestCluster {
    static final String K3S_IMAGE = "rancher/k3s:v1.34.1-k3s1";

    private static TestCluster instance;

    private final Path kubeconfig;
    private final KubernetesClient client;

    private TestCluster(Path kubeconfig) throws IOException {
        this.kubeconfig = kubeconfig;
        this.client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build();
    }

    public static synchronized TestCluster get() {
        if (instance == null) {
            try {
                instance = "k3s".equals(System.getProperty("poolbudget.cluster")) ? startK3s() : localCluster();
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the test cluster's kubeconfig: " + e.getMessage(), e);
            }
        }
        return instance;
    }

    private static TestCluster localCluster() throws IOException {
        Path kubeconfig = Path.of(System.getProperty("poolbudget.kubeconfig", "build/cluster/test.kubeconfig"));
        if (!Files.isReadable(kubeconfig)) {
            throw new IllegalStateException("no test cluster: " + kubeconfig + " is missing. Run the ITs with "
                    + "./mvnw verify (it starts the cluster), or start it first: hack/cluster/up.sh --for-tests");
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
