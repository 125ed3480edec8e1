package io.poolbudget.write;

import io.poolbudget.decide.PolicyPassTest;

import static io.poolbudget.decide.PolicyPassTest.policy;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An Event still queued when the operator stops meets a closed HTTP client: it is dropped quietly, not thrown from
 * the sender thread as a stack trace in the log (seen in a scale benchmark's shutdown).
 */
class PolicyEventsShutdownTest {

    @Test
    void anEventQueuedAtShutdownIsDroppedWithoutAStackTrace() throws Exception {
        var client = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").withRequestRetryBackoffLimit(0)
                        .build())
                .build();
        client.close();
        var events = new PolicyEvents(client, new io.poolbudget.memory.PolicyMemory());
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> uncaught.add(e));
        try {
            events.normal(policy("db", PolicyPassTest.SPEC), PolicyEvents.APPLIED, "Deployment/api: pool size 4");
            events.sender.shutdown();
            assertThat(events.sender.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            // the executor's own thread reports an uncaught exception after the task: give it that moment
            Thread.sleep(200);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
        assertThat(events.sender.getCompletedTaskCount()).isEqualTo(1);
        assertThat(uncaught).isEmpty();
    }
}
