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
    private final java.util.List<long[]> timeline = new java.util.ArrayList<>();
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
            client.pods().inNamespace(namespace).list().getItems()
                    .forEach(p -> sampler.sizes.put(p.getMetadata().getName(),
                            sampler.size(p)));
            sampler.peak = sampler.total();
            sampler.timeline.add(new long[]{System.nanoTime(), sampler.peak});
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
        timeline.add(new long[]{System.nanoTime(), total()});
    }

    /** The sum at each pod event: {System.nanoTime() when seen, connections}. */
    synchronized java.util.List<long[]> timeline() {
        return java.util.List.copyOf(timeline);
    }

    /** How many times the sum went from within {@code budget} to above it (a first sample above counts as one). */
    synchronized int episodesOver(long budget) {
        int episodes = 0;
        boolean over = false;
        for (long[] sample : timeline) {
            if (sample[1] > budget && !over) {
                episodes++;
            }
            over = sample[1] > budget;
        }
        return episodes;
    }

    /** When the sum last came back within {@code budget} from above it (System.nanoTime), or -1. */
    synchronized long lastBackWithin(long budget) {
        long at = -1;
        boolean over = false;
        for (long[] sample : timeline) {
            if (over && sample[1] <= budget) {
                at = sample[0];
            }
            over = sample[1] > budget;
        }
        return at;
    }

    synchronized int peak() {
        return peak;
    }

    synchronized int events() {
        return events;
    }

    synchronized int now() {
        return total();
    }

    private int total() {
        return sizes.values().stream().mapToInt(Integer::intValue).sum();
    }

    private int size(Pod pod) {
        return held(pod, variable, appDefault);
    }

    /** The pool a pod holds: {@code variable} in its first container, or the app's default where it has none. */
    static int held(Pod pod, String variable, int appDefault) {
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
