package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two Deployments trade pool sizes. The shrinking one rolls slowly (minReadySeconds), so its old
 * pods with large pools linger; had the growing one been sized at the same time, the sum would
 * pass the budget. Every pod event is sampled.
 */
class ShrinkFirstIT extends OperatorTestBase {
    // 4 replicas + 1 surge + 1 terminating = 6 peak pods each; budget 18 cores × 2 = 36.
    // weights 5:1 -> a = 5, b = 1 (30 + 6); flipped -> a = 1, b = 5.
    static final int BUDGET = 36;

    @BeforeAll
    static void start() {
        startOperator("ordering", "0s");
    }

    private static String policy(int weightA, int weightB) {
        return """
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db}
                spec:
                  database: {cores: 18}
                  injection: {preset: hikari-env}
                  targets: [{name: a, weight: %d}, {name: b, weight: %d}]
                """.formatted(weightA, weightB);
    }

    private void startPair(int minReadySeconds) {
        var a = deployment("a", 4, Map.of());
        a.getSpec().setMinReadySeconds(minReadySeconds);
        create(a);
        create(deployment("b", 4, Map.of()));
        applyPolicy(policy(5, 1));
        awaitPolicy("db", targetState("a", "Applied", 5).and(targetState("b", "Applied", 1)));
        awaitRolledOut("a");
        awaitRolledOut("b");
    }

    @Test
    void shrinkingTargetsRollOutBeforeGrowingOnesAndTheBudgetHoldsThroughout() {
        startPair(2);
        var sampler = new Sampler();
        try (Watch watch = client.pods().inNamespace(ns).watch(sampler)) {
            sampler.reset(client.pods().inNamespace(ns).list().getItems());
            applyPolicy(policy(1, 5));
            awaitPolicy("db", targetState("a", "Applied", 1).and(targetState("b", "Applied", 5)));
            awaitRolledOut("b");
        }
        System.out.printf("ShrinkFirstIT: %d pod events sampled, peak %d of %d connections%n", sampler.events,
                sampler.peak, BUDGET);
        assertThat(sampler.events).as("pod events sampled").isGreaterThan(10);
        assertThat(sampler.peak).as("most connections the live pods could hold at one sampled moment")
                .isLessThanOrEqualTo(BUDGET);
        assertThat(sampler.firstLargeB).as("b's first pod with pool 5 started after a's last pool-5 pod was gone")
                .isGreaterThan(sampler.lastLargeAGone);
    }

    @Test
    void aRestartedOperatorResumesTheTransition() {
        startPair(4);
        applyPolicy(policy(1, 5));
        // a's shrink is written at once; b's raise is held while a rolls out
        awaitPolicy("db", targetState("a", "Rolling", 1).and(p -> "Pending".equals(target(p, "b").getState())));
        operator.stop();

        awaitRolledOut("a");
        assertThat(templateEnv("b", MAX)).as("nothing raised b while the operator was down").isEqualTo("1");

        restartOperator("ordering-restarted", Map.of("POOLBUDGET_STABILIZATION_WINDOW", "0s"));
        awaitPolicy("db", targetState("a", "Applied", 1).and(targetState("b", "Applied", 5)));
        awaitRolledOut("b");
        assertThat(livePods("b")).hasSize(4)
                .allSatisfy(p -> assertThat(env(p.getSpec().getContainers().get(0).getEnv(), MAX)).isEqualTo("5"));
    }

    /**
     * Σ pool size over live pods (poolsPerPod 1) at every pod event; a pod counts until it is deleted. The order of a's
     * last large pod leaving and b's first large pod arriving is taken from the resource versions etcd gave the two
     * events, not from when they reached this watcher: two namespaces are two watch streams, and one can arrive
     * seconds after the other on a busy machine (a CI run saw b's pod 1.9 s "before" a deletion etcd had made first).
     */
    static final class Sampler implements Watcher<Pod> {
        private final Map<String, Integer> sizes = new HashMap<>();
        int peak;
        int events;
        long lastLargeAGone;
        long firstLargeB = Long.MAX_VALUE;

        synchronized void reset(Iterable<Pod> pods) {
            pods.forEach(p -> sizes.put(p.getMetadata().getName(), size(p)));
            peak = sizes.values().stream().mapToInt(Integer::intValue).sum();
        }

        @Override
        public synchronized void eventReceived(Action action, Pod pod) {
            events++;
            long revision = Long.parseLong(pod.getMetadata().getResourceVersion());
            String app = pod.getMetadata().getLabels().get("app");
            if (action == Action.DELETED) {
                Integer gone = sizes.remove(pod.getMetadata().getName());
                if ("a".equals(app) && gone != null && gone == 5) {
                    lastLargeAGone = Math.max(lastLargeAGone, revision);
                }
            } else {
                sizes.put(pod.getMetadata().getName(), size(pod));
                if ("b".equals(app) && size(pod) == 5) {
                    firstLargeB = Math.min(firstLargeB, revision);
                }
            }
            peak = Math.max(peak, sizes.values().stream().mapToInt(Integer::intValue).sum());
        }

        private static int size(Pod pod) {
            String v = env(pod.getSpec().getContainers().get(0).getEnv(), MAX);
            return v == null ? 0 : Integer.parseInt(v);
        }

        @Override
        public void onClose(WatcherException cause) {}
    }
}
