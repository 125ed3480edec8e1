package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 20, found 2: a written size that breaks the pods' start-up must not read as Ready. KWOK starts every pod;
 * {@link Breaker} plays the app that cannot start with the new size (as one whose DATABASE_URL referred to the
 * variable before it was defined): it marks a pod carrying that size as crash-looping, as the kubelet would.
 */
class StalledRolloutIT extends OperatorTestBase {

    @BeforeAll
    static void start() {
        startOperator("stalled-rollout", "0s");
    }

    /** Marks every pod of {@code app} whose pool variable is {@code size} as crash-looping, while on. */
    private final class Breaker implements Watcher<Pod>, AutoCloseable {
        final AtomicBoolean on = new AtomicBoolean(true);
        final String app;
        final String size;
        Watch watch;

        Breaker(String app, int size) {
            this.app = app;
            this.size = Integer.toString(size);
        }

        @Override
        public void eventReceived(Action action, Pod pod) {
            var st = pod.getStatus();
            if (!on.get() || action == Action.DELETED || pod.getMetadata().getDeletionTimestamp() != null
                    || !size.equals(env(pod.getSpec().getContainers().get(0).getEnv(), MAX)) || st == null
                    || st.getPodIP() == null || (st.getContainerStatuses() != null && st.getContainerStatuses().stream()
                            .anyMatch(c -> c.getRestartCount() != null && c.getRestartCount() >= 3))) {
                return;
            }
            try {
                client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                        .editStatus(p -> {
                            p.getStatus().setConditions(List.of(
                                    new PodConditionBuilder().withType("Ready").withStatus("False").build(),
                                    new PodConditionBuilder().withType("ContainersReady").withStatus("False").build()));
                            p.getStatus().setContainerStatuses(List.of(new ContainerStatusBuilder().withName("app")
                                    .withImage(p.getSpec().getContainers().get(0).getImage()).withImageID("")
                                    .withReady(false).withStarted(false).withRestartCount(3).withNewState()
                                    .withNewWaiting()
                                    .withReason("CrashLoopBackOff").endWaiting().endState().build()));
                            return p;
                        });
            } catch (KubernetesClientException changedMeanwhile) {
                // the next event of this pod tries again
            }
        }

        @Override
        public void onClose(WatcherException cause) {}

        @Override
        public void close() {
            on.set(false);
            watch.close();
        }
    }

    @Test
    void aSizeThatBreaksStartUpIsReportedNamingTheWorkloadAndHoldsTheRaiseThatWaitsForIt() throws Exception {
        var a = deployment("a", 1, Map.of("db", "orders"));
        a.getSpec().setMinReadySeconds(10); // the old pod stays until a new one has been Ready for 10 s
        create(a);
        awaitRolledOut("a");
        applyPolicy(ORDERS_POLICY);
        // a alone: 1 replica + 1 surge + 1 terminating = 3 peak pods -> 66 per pod
        awaitPolicy("db", targetState("a", "Applied", 66));
        awaitRolledOut("a");

        try (var breaker = new Breaker("a", 33)) {
            breaker.watch = client.pods().inNamespace(ns).withLabel("app", "a").watch(breaker);
            // b joins: 6 peak pods -> 33 each. a's lower to 33 is written at once and its new pod does not start; b's
            // raise from the app's default 10 to 33 must wait for a's shrink, which never completes.
            long joined = System.nanoTime();
            create(deployment("b", 1, Map.of("db", "orders")));
            var stalled = awaitPolicy("db", p -> target(p, "a") != null && "Stalled".equals(target(p, "a").getState()));
            double seconds = (System.nanoTime() - joined) / 1e9;
            System.out.printf("StalledRolloutIT: reported %.1f s after b joined (a's progressDeadlineSeconds 600)%n",
                    seconds);
            assertThat(seconds).as("seconds until reported, well inside the progress deadline").isLessThan(60);
            assertThat(target(stalled, "a").getMessage())
                    .startsWith("pool size 33 has not taken effect: its new pod a-")
                    .contains("does not start: container 'app' restarts without becoming Ready (CrashLoopBackOff)");
            assertThat(stalled.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Ready")).singleElement()
                    .satisfies(c -> {
                        assertThat(c.getStatus()).isEqualTo("False");
                        assertThat(c.getReason()).isEqualTo("TargetProblem");
                        assertThat(c.getMessage())
                                .startsWith("Deployment/a (Stalled: pool size 33 has not taken effect");
                    });
            assertThat(target(stalled, "b").getState()).isEqualTo("Pending");
            assertThat(target(stalled, "b").getMessage()).contains("Deployment/a");
            assertThat(templateEnv("b", MAX)).as("b's raise is held").isNull();
            awaitEvents(events -> assertThat(events).anySatisfy(e -> {
                assertThat(e.getType()).isEqualTo("Warning");
                assertThat(e.getReason()).isEqualTo("TargetProblem");
                assertThat(e.getMessage()).startsWith("Deployment/a (Stalled: pool size 33 has not taken effect");
            }));
            Thread.sleep(3000);
            assertThat(templateEnv("b", MAX)).as("b's raise is still held").isNull();
        }
        // the app is fixed: the broken pod is replaced by one that starts; a's shrink completes, then b's raise
        client.pods().inNamespace(ns).withLabel("app", "a").list().getItems().stream()
                .filter(p -> "33".equals(env(p.getSpec().getContainers().get(0).getEnv(), MAX)))
                .forEach(p -> client.resource(p).delete());
        var settled = awaitPolicy("db", targetState("a", "Applied", 33).and(targetState("b", "Applied", 33)), 120);
        assertThat(settled.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Ready"))
                .extracting(c -> c.getStatus()).containsExactly("True");
    }
}
