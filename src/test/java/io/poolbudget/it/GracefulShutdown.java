package io.poolbudget.it;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * KWOK deletes a pod at once; a real app holds its pool until it has shut down. A Deployment made
 * with {@link #hold} gives its pods a finalizer, and this watcher (one per test cluster) removes it one
 * second (or as many as its label says) after the pod was deleted: its pods stay Terminating, holding their pools.
 */
final class GracefulShutdown {
    static final String FINALIZER = "poolbudget.io/it-graceful-shutdown";
    static final String LABEL = "poolbudget.io/it-graceful-shutdown";
    private static final long HOLD_MILLIS = 1000;
    private static final Set<KubernetesClient> watched = new HashSet<>();
    private static ScheduledExecutorService timer;

    private GracefulShutdown() {}

    /** Gives the Deployment's pods the ~1 s shutdown. */
    static Deployment hold(Deployment d) {
        return hold(d, 1);
    }

    /** Gives the Deployment's pods a shutdown of about {@code seconds} (the label's value says how long). */
    static Deployment hold(Deployment d, int seconds) {
        var meta = d.getSpec().getTemplate().getMetadata();
        meta.getLabels().put(LABEL, seconds + "s");
        meta.setFinalizers(new ArrayList<>(List.of(FINALIZER)));
        return d;
    }

    /** Starts the watcher on this client's cluster, once per cluster. */
    static synchronized void ensureRunning(KubernetesClient client) {
        if (!watched.add(client)) {
            return;
        }
        if (timer == null) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                var t = new Thread(r, "graceful-shutdown");
                t.setDaemon(true);
                return t;
            });
        }
        var pods = client.pods().inAnyNamespace().withLabel(LABEL);
        pods.watch(new Watcher<Pod>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                release(client, pod);
            }

            @Override
            public void onClose(WatcherException cause) {}
        });
        // a missed watch event must not leave a pod (and its namespace) stuck
        timer.scheduleWithFixedDelay(() -> pods.list().getItems().forEach(p -> release(client, p)), 3, 3,
                TimeUnit.SECONDS);
    }

    /** How long a pod labelled {@code value} ("6s") stays Terminating; 1 s where the value says no other. */
    private static long holdMillis(String value) {
        return value != null && value.matches("[0-9]+s")
                ? Long.parseLong(value.substring(0, value.length() - 1)) * 1000 : HOLD_MILLIS;
    }

    private static void release(KubernetesClient client, Pod pod) {
        var meta = pod.getMetadata();
        if (meta.getDeletionTimestamp() == null || meta.getFinalizers() == null
                || !meta.getFinalizers().contains(FINALIZER)) {
            return;
        }
        timer.schedule(() -> {
            try {
                OperatorTestBase.editRetrying(client.pods().inNamespace(meta.getNamespace()).withName(meta.getName()),
                        p -> {
                            p.getMetadata().getFinalizers().remove(FINALIZER);
                            return p;
                        });
            } catch (KubernetesClientException gone) {
                // already released, or gone
            }
        }, holdMillis(meta.getLabels() == null ? null : meta.getLabels().get(LABEL)), TimeUnit.MILLISECONDS);
    }
}
