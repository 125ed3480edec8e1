package io.poolbudget.it;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the pods of a namespace hold, listed every 100 ms (terminating pods too), each as {@link LiveSampler#held}
 * counts it. {@link LiveSampler} sums at every pod event; this one on a clock, as the issue asks.
 */
final class PollingSum implements AutoCloseable {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private volatile int peak;
    private volatile int samples;

    static PollingSum every100ms(KubernetesClient client, String namespace, String variable, int appDefault) {
        var sum = new PollingSum();
        sum.timer.scheduleAtFixedRate(() -> {
            int total = 0;
            for (Pod p : client.pods().inNamespace(namespace).list().getItems()) {
                total += LiveSampler.held(p, variable, appDefault);
            }
            sum.peak = Math.max(sum.peak, total);
            sum.samples++;
        }, 0, 100, TimeUnit.MILLISECONDS);
        return sum;
    }

    int peak() {
        return peak;
    }

    int samples() {
        return samples;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
