package io.poolbudget.it;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.HashMap;
import java.util.Map;

/**
 * What the database would see: at every pod event of a namespace, Σ over the pods that exist
 * (terminating ones included, until they are gone) of the pool each holds: the variable in its
 * first container, or the app's default where it has none.
 */
final class LiveSampler implements Watcher<Pod>, AutoCloseable {
    private final Map<String, Integer> sizes = new HashMap<>();
    private final String variable;
    private final int appDefault;
    private Watch watch;
    private int peak;
    private int events;

    private LiveSampler(String variable, int appDefault) {
        this.variable = variable;
        this.appDefault = appDefault;
    }

    static LiveSampler start(KubernetesClient client, String namespace, String variable, int appDefault) {
        var sampler = new LiveSampler(variable, appDefault);
        synchronized (sampler) {
            sampler.watch = client.pods().inNamespace(namespace).watch(sampler);
            client.pods().inNamespace(namespace).list().getItems().forEach(p -> sampler.sizes.put(p.getMetadata().getName(),
                    sampler.size(p)));
            sampler.peak = sampler.total();
        }
        return sampler;
    }

    @Override
    public synchronized void eventReceived(Action action, Pod pod) {
        events++;
        if (action == Action.DELETED) {
            sizes.remove(pod.getMetadata().getName());
        } else {
            sizes.put(pod.getMetadata().getName(), size(pod));
        }
        peak = Math.max(peak, total());
    }

    synchronized int peak() { return peak; }

    synchronized int events() { return events; }

    synchronized int now() { return total(); }

    private int total() {
        return sizes.values().stream().mapToInt(Integer::intValue).sum();
    }

    private int size(Pod pod) {
        String v = OperatorTestBase.env(pod.getSpec().getContainers().get(0).getEnv(), variable);
        return v == null ? appDefault : Integer.parseInt(v);
    }

    @Override
    public void onClose(WatcherException cause) {}

    @Override
    public void close() {
        watch.close();
    }
}
