package io.poolbudget.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which pods a database's clients are, where the operator does not cache them (it has not sized them). */
class ClientPodsTest {
    @Test
    void thePodsAtTheClientAddressesAreKeptByTheirLabels() {
        var found = ClientPods.at(List.of(pod("web-old", "10.0.0.6", false), pod("other", "10.0.0.9", false),
                pod("idle", "10.0.0.7", false), pod("pending", null, false)),
                Set.of("10.0.0.6", "10.0.0.9", "10.0.0.1"));
        assertThat(found).isEqualTo(Map.of("10.0.0.6", Map.of("app", "web-old"), "10.0.0.9", Map.of("app", "other")));
    }

    @Test
    void aPodOnItsNodesNetworkIsNoClientsPod() {
        // its address is the node's: any other process there would be taken for it
        assertThat(ClientPods.at(List.of(pod("agent", "192.168.1.4", true)), Set.of("192.168.1.4"))).isEmpty();
    }

    @Test
    void noPodIsListedWhenEveryClientIsACachedPod() {
        assertThat(ClientPods.find(null, "ns", Set.of("10.0.0.5"), Set.of("10.0.0.5", "10.0.0.8"))).isEmpty();
    }

    private static Pod pod(String app, String ip, boolean hostNetwork) {
        return new PodBuilder().withNewMetadata().withName(app + "-1").withLabels(Map.of("app", app)).endMetadata()
                .withNewSpec().withHostNetwork(hostNetwork).endSpec().withNewStatus().withPodIP(ip).endStatus().build();
    }
}
