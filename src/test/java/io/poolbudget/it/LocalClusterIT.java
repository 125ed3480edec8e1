package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The test bed itself: schedulable Ready nodes and real Deployment rollouts. */
@ClusterTest
class LocalClusterIT {
    private static final List<String> namespaces = new ArrayList<>();
    private static KubernetesClient client;

    @BeforeAll
    static void connect() {
        client = TestCluster.of(LocalClusterIT.class).client();
    }

    @AfterAll
    static void cleanUp() {
        if (client != null) {
            ClusterFixture.deleteNamespaces(client, namespaces);
        }
    }

    @Test
    void nodesAreReady() {
        List<Node> nodes = client.nodes().list().getItems();
        assertThat(nodes).isNotEmpty();
        assertThat(nodes).allSatisfy(n -> assertThat(n.getStatus().getConditions())
                .anySatisfy(c -> {
                    assertThat(c.getType()).isEqualTo("Ready");
                    assertThat(c.getStatus()).isEqualTo("True");
                }));
        assertThat(client.getKubernetesVersion().getGitVersion()).startsWith("v1.34.");
    }

    @Test
    void deploymentRollsOutAndAnEnvChangeRollsItWithASurgePod() throws Exception {
        String ns = ClusterFixture.createNamespace(client, "it-cluster");
        namespaces.add(ns);
        var deployments = client.apps().deployments().inNamespace(ns);
        deployments.resource(ClusterFixture.deployment("web", 3, Map.of())).create();
        awaitRolledOut(ns, "web", 1);

        // Count pods that exist at once during the rollout: maxSurge 1 / maxUnavailable 0 means a
        // fourth pod must start before any old one goes.
        Set<String> live = ConcurrentHashMap.newKeySet();
        AtomicInteger peak = new AtomicInteger();
        client.pods().inNamespace(ns).list().getItems().forEach(p -> live.add(p.getMetadata().getName()));
        try (var watch = client.pods().inNamespace(ns).watch(new Watcher<Pod>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                if (action == Action.DELETED) {
                    live.remove(pod.getMetadata().getName());
                } else {
                    live.add(pod.getMetadata().getName());
                }
                peak.accumulateAndGet(live.size(), Math::max);
            }

            @Override
            public void onClose(WatcherException cause) {}
        })) {
            OperatorTestBase.editRetrying(deployments.withName("web"), d -> {
                d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()
                        .add(new EnvVar("HIKARI_MAXIMUM_POOL_SIZE", "4", null));
                return d;
            });
            awaitRolledOut(ns, "web", 2);
        }
        assertThat(peak.get()).as("pods alive at once during the rollout").isGreaterThanOrEqualTo(4);
        var pods = client.pods().inNamespace(ns).withLabel("app", "web").list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
        assertThat(pods).hasSize(3).allSatisfy(p -> assertThat(p.getSpec().getContainers().get(0).getEnv())
                .extracting(EnvVar::getName).contains("HIKARI_MAXIMUM_POOL_SIZE"));
    }

    private void awaitRolledOut(String ns, String name, long generation) {
        client.apps().deployments().inNamespace(ns).withName(name).waitUntilCondition(d -> d.getStatus() != null
                && Long.valueOf(generation).equals(d.getStatus().getObservedGeneration())
                && d.getSpec().getReplicas().equals(d.getStatus().getUpdatedReplicas())
                && d.getSpec().getReplicas().equals(d.getStatus().getReadyReplicas())
                && d.getSpec().getReplicas().equals(d.getStatus().getReplicas()), 90, TimeUnit.SECONDS);
    }
}
