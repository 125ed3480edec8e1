package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, item 2: {@code plan} without a build of your own. The {@code poolbudget} launcher in the repository runs
 * the checkout's jar, and the operator image in a throwaway pod ({@code kubectl run --rm -i}) with the files named by
 * {@code -f} sent on its stdin: on the real node, from the image the node imported, both print the same plan.
 */
@ClusterTest
@OutsideTheLane // no operator: it runs plan, which only reads
class LauncherE2E {
    private record Run(int exit, String output) {}

    private static Run launcher(Map<String, String> env, String... args) throws Exception {
        var cmd = new java.util.ArrayList<>(List.of("./poolbudget"));
        cmd.addAll(List.of(args));
        var pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.PIPE);
        pb.environment().putAll(env);
        var p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("the launcher ended").isTrue();
        return new Run(p.exitValue(), out);
    }

    @Test
    void planRunsFromTheCheckoutAndFromTheOperatorImage() throws Exception {
        var cluster = TestCluster.of(LauncherE2E.class);
        String ns = ClusterFixture.createNamespace(cluster.client(), "e2e-launcher");
        try {
            String[] plan = {"plan", "-f", "examples/poolpolicy.yaml", "-f", "examples/workloads.yaml"};
            var jar = launcher(Map.of("POOLBUDGET_VIA", "jar"), plan);
            assertThat(jar.exit()).as(jar.output()).isZero();
            assertThat(jar.output()).contains("PoolPolicy orders-db: fits");

            Map<String, String> viaPod = Map.of("POOLBUDGET_VIA", "kubectl",
                    "KUBECONFIG", cluster.kubeconfig().toAbsolutePath().toString(),
                    "POOLBUDGET_KUBECTL", Installation.clusterBin().resolve("kubectl").toString(),
                    "POOLBUDGET_NAMESPACE", ns, "POOLBUDGET_PULL_POLICY", "Never",
                    "POOLBUDGET_OVERRIDES", """
                            {"spec": {"nodeSelector": {"poolbudget.io/real-node": "true"}, "tolerations":
                             [{"key": "poolbudget.io/real-node", "operator": "Exists", "effect": "NoSchedule"}]}}""");
            var pod = launcher(viaPod, plan);
            System.out.println("LauncherE2E, plan from the image in a pod:\n" + pod.output());
            assertThat(pod.exit()).as(pod.output()).isZero();
            assertThat(pod.output()).as("the same plan as the jar's").contains(jar.output().strip());
            // bad input: exit 2 from the jar; through kubectl, a non-zero exit too
            var bad = java.nio.file.Files.createTempFile("poolbudget-bad", ".yaml");
            java.nio.file.Files.writeString(bad, "kind: PoolPolicy\nspec: [unclosed\n");
            assertThat(launcher(Map.of("POOLBUDGET_VIA", "jar"), "plan", "-f", bad.toString()).exit()).isEqualTo(2);
            var badPod = launcher(viaPod, "plan", "-f", bad.toString());
            java.nio.file.Files.delete(bad);
            assertThat(badPod.exit()).as(badPod.output()).isNotZero();
            org.awaitility.Awaitility.await("the throwaway pod removed").atMost(60, TimeUnit.SECONDS)
                    .until(() -> cluster.client().pods().inNamespace(ns).list().getItems().isEmpty());
        } finally {
            ClusterFixture.deleteNamespaces(cluster.client(), List.of(ns));
        }
    }
}
