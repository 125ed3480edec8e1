package io.poolbudget.observe;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.poolbudget.config.ListPages;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * The pods at a database's client addresses that the operator does not cache: it caches only the pods it sized, so a
 * target's pods started before it first sized them, or from a template it did not size, would show as clients "not from
 * a target". Looked up only where a read has such an address, by one list of the namespace's pods that have not ended,
 * in pages; of each pod at such an address only its labels are kept, by which a target's workload owns it (as it owns
 * its sized pods).
 */
final class ClientPods {
    private static final Logger LOG = Logger.getLogger(ClientPods.class);

    private ClientPods() {}

    /**
     * The labels of the pods of {@code namespace} at the client addresses that are no cached pod's ({@code cached});
     * empty where there is none, or the pods cannot be listed (then such clients show as addresses).
     */
    static Map<String, Map<String, String>> find(KubernetesClient client, String namespace, Set<String> clients,
            Set<String> cached) {
        Set<String> wanted = clients.stream().filter(c -> !cached.contains(c)).collect(Collectors.toSet());
        Map<String, Map<String, String>> found = new HashMap<>();
        if (wanted.isEmpty()) {
            return found;
        }
        var pods = client.pods().inNamespace(namespace).withoutField("status.phase", "Succeeded")
                .withoutField("status.phase", "Failed");
        try {
            String next = null;
            do {
                PodList page = pods.list(new ListOptionsBuilder().withLimit(ListPages.LIMIT)
                        .withContinue(next).build());
                found.putAll(at(page.getItems(), wanted));
                next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
            } while (next != null && !next.isEmpty() && found.size() < wanted.size());
        } catch (KubernetesClientException e) {
            LOG.debugf("the pods of namespace %s cannot be listed (%d): its clients show as addresses", namespace,
                    e.getCode());
            return Map.of();
        }
        return found;
    }

    /**
     * The labels of the pods, of {@code pods}, whose address is one of {@code addresses}; not of a pod on its node's
     * network, whose address is the node's, shared by whatever else runs there.
     */
    static Map<String, Map<String, String>> at(Collection<Pod> pods, Set<String> addresses) {
        Map<String, Map<String, String>> found = new HashMap<>();
        for (Pod p : pods) {
            String ip = p.getStatus() == null ? null : p.getStatus().getPodIP();
            boolean node = p.getSpec() != null && Boolean.TRUE.equals(p.getSpec().getHostNetwork());
            if (ip != null && !node && addresses.contains(ip)) {
                var labels = p.getMetadata().getLabels();
                found.put(ip, labels == null ? Map.of() : Map.copyOf(labels));
            }
        }
        return found;
    }
}
