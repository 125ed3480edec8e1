package io.poolbudget.it;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Every pod a namespace had while this watched, by its IP: which pod, of which template, with which pool size in its
 * environment, and whether it was being deleted. Names the addresses a {@link ConnectionSampler} saw at its peak, so
 * that an over-budget failure says which pods held the connections (they are gone by the time it is reported).
 */
final class PodAddresses implements Watcher<Pod>, Function<String, String>, AutoCloseable {
    private final Map<String, String> byAddress = new ConcurrentHashMap<>();
    private final Watch watch;

    PodAddresses(KubernetesClient client, String ns) {
        this.watch = client.pods().inNamespace(ns).watch(this);
    }

    @Override
    public void eventReceived(Action action, Pod pod) {
        String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
        if (ip == null) {
            return;
        }
        var env = new StringBuilder();
        pod.getSpec().getContainers().forEach(c -> c.getEnv().stream().filter(e -> e.getName().contains("POOL")
                || e.getName().contains("IDLE")).forEach(e -> env.append(' ').append(e.getName()).append('=')
                        .append(e.getValue())));
        var labels = pod.getMetadata().getLabels();
        byAddress.put(ip, pod.getMetadata().getName() + " (template " + (labels == null ? null
                : labels.get("pod-template-hash")) + env
                + (pod.getMetadata().getDeletionTimestamp() == null ? ""
                        : ", deleted at " + pod.getMetadata().getDeletionTimestamp())
                + (action == Action.DELETED ? ", gone" : "") + ")");
    }

    @Override
    public String apply(String address) {
        return byAddress.getOrDefault(address, "(no pod seen at this address)");
    }

    @Override
    public void onClose(WatcherException cause) {}

    @Override
    public void close() {
        watch.close();
    }
}
