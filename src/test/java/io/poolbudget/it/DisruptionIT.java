package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.poolbudget.api.v1alpha1.TargetStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 54: what every cluster does each week. A node drain evicts a workload's pods through the Eviction API as fast
 * as its PodDisruptionBudget allows, and each evicted pod terminates (about 1 s here, {@link GracefulShutdown}) beside
 * its replacement; an HPA scale-down as the operator's write starts a rollout is not a slow shutdown. Through each,
 * what every pod holds (terminating ones included) is summed at every pod event ({@link LiveSampler}) and every
 * 100 ms ({@link PollingSum}), and must stay within the budget.
 */
class DisruptionIT extends OperatorTestBase {
    /** cores 12 × 2. */
    private static final int BUDGET = 24;

    @BeforeAll
    static void start() {
        startOperator("disruption", "0s");
        GracefulShutdown.ensureRunning(TestCluster.of(DisruptionIT.class).client());
    }

    /**
     * Deployment a: 6 replicas, maxSurge 1, maxUnavailable 0, ~1 s shutdowns, sized by a policy of budget 24 with
     * terminatingPods 1 (pinned: KWOK's instant readiness would otherwise teach the operator that every old pod of its
     * first rollout terminates at once, which would hide what a drain adds), under a PodDisruptionBudget.
     */
    private TargetStatus onboard(String budgetSpec) {
        var a = GracefulShutdown.hold(deployment("a", 6, Map.of()));
        create(a);
        var pdb = new PodDisruptionBudgetBuilder().withNewMetadata().withName("a").endMetadata().withNewSpec()
                .withNewSelector().withMatchLabels(Map.of("app", "a")).endSelector().endSpec().build();
        if (budgetSpec.startsWith("minAvailable ")) {
            pdb.getSpec().setMinAvailable(new IntOrString(Integer.parseInt(budgetSpec.substring(13))));
        } else {
            String v = budgetSpec.substring("maxUnavailable ".length());
            pdb.getSpec()
                    .setMaxUnavailable(v.endsWith("%") ? new IntOrString(v) : new IntOrString(Integer.parseInt(v)));
        }
        client.resource(pdb).inNamespace(ns).create();
        awaitRolledOut("a");
        applyPolicy(WEB_POLICY.formatted(12).replace("{name: web}", "{name: a, terminatingPods: 1}"));
        var p = awaitPolicy("db", x -> target(x, "a") != null && "Applied".equals(target(x, "a").getState())
                && target(x, "a").getPoolSize() != null, 120);
        awaitRolledOut("a");
        awaitOldPodsGone("a", 60);
        return target(awaitPolicy("db", x -> "Applied".equals(target(x, "a").getState())), "a");
    }

    /** What a drain of the sampled namespace showed: the most the pods held at one moment, by each sampler. */
    private record Drained(int atEvents, int every100ms, int samples, int evicted, int refused) {}

    /**
     * Drains the nodes that hold the most of a's pods as {@code kubectl drain} does: cordoned first, then every pod of
     * a's on them evicted at once through the Eviction API, each refused eviction (429: the budget allows none now)
     * tried again 5 s later, as kubectl does, until the pod is gone. Enough nodes for 4 of a's pods, one node left.
     * KWOK turns a pod Ready the moment it is scheduled, and a budget counts Ready pods: its next eviction would be
     * allowed while the last evicted pods still shut down. A real app's replacement takes longer to turn Ready than
     * its shutdown here (1 s), as the plan assumes of a rollout step too: every node stays cordoned through the drain,
     * and each replacement is bound to a node not drained 2 s after it was created ({@link #startLate}).
     */
    private Drained drain() throws Exception {
        Map<String, List<Pod>> byNode = livePods("a").stream().filter(p -> p.getSpec().getNodeName() != null)
                .collect(Collectors.groupingBy(p -> p.getSpec().getNodeName()));
        List<String> schedulable = client.nodes().list().getItems().stream()
                .filter(n -> !Boolean.TRUE.equals(n.getSpec().getUnschedulable())).map(n -> n.getMetadata().getName())
                .toList();
        List<String> nodes = new ArrayList<>();
        List<Pod> toEvict = new ArrayList<>();
        for (var e : byNode.entrySet().stream()
                .sorted(Comparator.comparing((Map.Entry<String, List<Pod>> x) -> -x.getValue().size())).toList()) {
            if (toEvict.size() >= 4 || nodes.size() >= schedulable.size() - 1) {
                break;
            }
            nodes.add(e.getKey());
            toEvict.addAll(e.getValue());
        }
        assertThat(toEvict).as("pods of a on the nodes drained (" + nodes + ")").hasSizeGreaterThanOrEqualTo(3);
        ExecutorService pool = Executors.newFixedThreadPool(toEvict.size());
        int[] counts = new int[2];
        try (var events = LiveSampler.start(client, ns, MAX, 10);
                var polled = PollingSum.every100ms(client, ns, MAX, 10)) {
            schedulable.forEach(n -> cordon(n, true));
            var starter = startLate(schedulable.stream().filter(n -> !nodes.contains(n)).toList());
            starters.add(starter);
            List<Future<Integer>> refusals = new ArrayList<>();
            for (Pod p : toEvict) {
                refusals.add(pool.submit(() -> evict(p.getMetadata().getName())));
            }
            for (var f : refusals) {
                counts[1] += f.get(3, TimeUnit.MINUTES);
                counts[0]++;
            }
            awaitRolledOut("a");
            awaitOldPodsGone("a", 60);
            var d = new Drained(events.peak(), polled.peak(), polled.samples(), counts[0], counts[1]);
            System.out.printf("DisruptionIT drain of %s: %d pods evicted (%d evictions refused with 429 first); the "
                    + "pods held at most %d at a pod event, %d in %d samples every 100 ms, of a budget of %d%n", nodes,
                    d.evicted(), d.refused(), d.atEvents(), d.every100ms(), d.samples(), BUDGET);
            return d;
        } finally {
            pool.shutdownNow();
            starters.forEach(ExecutorService::shutdownNow);
            schedulable.forEach(n -> cordon(n, false));
        }
    }

    private final List<ExecutorService> starters = new ArrayList<>();

    /**
     * Binds each of a's pods that no node runs yet to one of {@code nodes}, 2 s after it was created: a replacement's
     * time to Ready (KWOK's is none), checked every 100 ms.
     */
    private ExecutorService startLate(List<String> nodes) {
        var timer = Executors.newSingleThreadScheduledExecutor();
        int[] next = {0};
        timer.scheduleWithFixedDelay(() -> {
            for (Pod p : client.pods().inNamespace(ns).withLabel("app", "a").list().getItems()) {
                if (p.getSpec().getNodeName() == null && p.getMetadata().getDeletionTimestamp() == null
                        && java.time.Instant.parse(p.getMetadata().getCreationTimestamp())
                                .isBefore(java.time.Instant.now().minusSeconds(2))) {
                    try {
                        client.bindings().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.BindingBuilder()
                                .withNewMetadata().withName(p.getMetadata().getName()).endMetadata().withNewTarget()
                                .withKind("Node").withName(nodes.get(next[0]++ % nodes.size())).endTarget().build())
                                .create();
                    } catch (io.fabric8.kubernetes.client.KubernetesClientException bound) {
                        // bound meanwhile, or gone
                    }
                }
            }
        }, 100, 100, TimeUnit.MILLISECONDS);
        return timer;
    }

    /** A client that returns a refused eviction (429) at once instead of trying it again itself. */
    private final io.fabric8.kubernetes.client.KubernetesClient evictions = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
            .withConfig(new io.fabric8.kubernetes.client.ConfigBuilder(
                    client.getConfiguration()).withRequestRetryBackoffLimit(0).build())
            .build();

    @org.junit.jupiter.api.AfterEach
    void closeEvictions() {
        evictions.close();
    }

    /** Evicts the pod, as a drain does, until it is evicted or gone; returns how many times the budget refused. */
    private int evict(String pod) throws InterruptedException {
        int refused = 0;
        long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        var resource = client.pods().inNamespace(ns).withName(pod);
        // not fabric8's own retries of a 429: each refusal is seen here and tried again as kubectl does
        while (resource.get() != null && resource.get().getMetadata().getDeletionTimestamp() == null) {
            if (evictions.pods().inNamespace(ns).withName(pod).evict()) {
                return refused;
            }
            refused++;
            assertThat(System.nanoTime()).as("evicting " + pod + " within 2 minutes").isLessThan(until);
            TimeUnit.SECONDS.sleep(5); // kubectl drain's interval between tries of an eviction refused with 429
        }
        return refused;
    }

    private void cordon(String node, boolean unschedulable) {
        editRetrying(client.nodes().withName(node), n -> {
            n.getSpec().setUnschedulable(unschedulable ? Boolean.TRUE : null);
            return n;
        });
    }

    @Test
    void aDrainUnderABudgetOfHalfOfSixReplicasStaysWithinTheBudget() throws Exception {
        var row = onboard("maxUnavailable 50%");
        var d = drain();
        assertThat(d.atEvents()).as("an evicted pod terminated beside its replacement").isGreaterThan(6 * 2);
        assertThat(d.atEvents()).as("most the pods held at a pod event").isLessThanOrEqualTo(BUDGET);
        assertThat(d.every100ms()).as("most the pods held in a sample every 100 ms").isLessThanOrEqualTo(BUDGET);
        // 6 + 1 surge + 3 a drain may evict at once (50% of 6) = 10 peak pods: pool 2 (without the term: 8 and 3, and
        // a drain's 9 pods at once hold 27 of 24)
        assertThat(row.getPeakPods()).as(row.getExplanation()).isEqualTo(10);
        assertThat(row.getExplanation()).contains("a drain may evict 3 at once: PodDisruptionBudget/a maxUnavailable "
                + "50%");
        assertThat(row.getPoolSize()).isEqualTo(2);
        assertThat(target(awaitPolicy("db", p -> true), "a").getPeakPods()).as("the plan after the drain")
                .isEqualTo(10);
    }

    @Test
    void aDrainUnderABudgetOfOneStaysWithinTheBudgetAndPlansNoMore() throws Exception {
        var row = onboard("maxUnavailable 1");
        // one pod at a time: within the rollout's own allowance (1), so 6 + 1 + 1 = 8 peak pods, pool 3
        assertThat(row.getPeakPods()).as(row.getExplanation()).isEqualTo(8);
        assertThat(row.getExplanation()).doesNotContain("drain");
        assertThat(row.getPoolSize()).isEqualTo(3);
        var d = drain();
        assertThat(d.refused()).as("the budget let one pod go at a time").isPositive();
        assertThat(d.atEvents()).as("most the pods held at a pod event").isLessThanOrEqualTo(BUDGET);
        assertThat(d.every100ms()).as("most the pods held in a sample every 100 ms").isLessThanOrEqualTo(BUDGET);
        // a change to the budget plans again: half of 6 may now go at once
        editRetrying(client.policy().v1().podDisruptionBudget().inNamespace(ns).withName("a"), b -> {
            b.getSpec().setMaxUnavailable(new IntOrString("50%"));
            return b;
        });
        var replanned = awaitPolicy("db",
                p -> target(p, "a").getPeakPods() != null && target(p, "a").getPeakPods() == 10);
        assertThat(target(replanned, "a").getExplanation()).contains("PodDisruptionBudget/a maxUnavailable 50%");
    }

    @Test
    void anHpaScaleDownFollowedByARolloutIsNotRememberedAsASlowShutdown() throws Exception {
        // web: 8 replicas, maxSurge 1, under an HPA of at most 8; no pod shutdown yet, so its first rollout teaches
        // nothing
        create(deployment("web", 8, Map.of()));
        create(new HorizontalPodAutoscalerBuilder().withNewMetadata().withName("web").endMetadata().withNewSpec()
                .withNewScaleTargetRef("apps/v1", "Deployment", "web").withMinReplicas(1).withMaxReplicas(8)
                .endSpec().build());
        applyPolicy(WEB_POLICY.formatted(12));
        awaitPolicy("db", p -> target(p, "web") != null && "Applied".equals(target(p, "web").getState()), 120);
        awaitRolledOut("web");
        awaitOldPodsGone("web", 60);
        // from now on its pods take 4 s to stop, and a rollout step 8 s (minReadySeconds): a shutdown shorter than a
        // step, so the rules plan for one step of old pods terminating (the user's change rolls out with no old pod held)
        editDeployment("web", d -> {
            GracefulShutdown.hold(d, 4);
            return d;
        });
        awaitRolledOut("web");
        awaitOldPodsGone("web", 60);
        editDeployment("web", d -> {
            d.getSpec().setMinReadySeconds(8);
            return d;
        });
        var before = target(awaitPolicy("db", p -> "Applied".equals(target(p, "web").getState())), "web");
        assertThat(before.getPeakPods()).as(before.getExplanation()).isEqualTo(8 + 1 + 1);
        String sizeBefore = templateEnv("web", MAX);

        try (var events = LiveSampler.start(client, ns, MAX, 10);
                var polled = PollingSum.every100ms(client, ns, MAX, 10)) {
            // the HPA's maximum lowered to 3 while the Deployment is paused: the HPA scales it down (5 pods
            // terminating, 4 s each) and the operator writes the larger pool the plan now gives; resumed, the rollout
            // starts while those 5 old pods still terminate
            editDeployment("web", d -> {
                d.getSpec().setPaused(true);
                return d;
            });
            editRetrying(client.autoscaling().v2().horizontalPodAutoscalers().inNamespace(ns).withName("web"),
                    h -> {
                        h.getSpec().setMaxReplicas(3);
                        return h;
                    });
            Awaitility.await("the HPA scaled web to 3 and the operator wrote its new pool").atMost(60, TimeUnit.SECONDS)
                    .pollInterval(200, TimeUnit.MILLISECONDS).until(() -> deployment("web").getSpec().getReplicas() == 3
                            && !sizeBefore.equals(templateEnv("web", MAX)));
            Awaitility.await("the scaled-down pods terminating").atMost(10, TimeUnit.SECONDS)
                    .pollInterval(100, TimeUnit.MILLISECONDS).until(() -> client.pods().inNamespace(ns)
                            .withLabel("app", "web").list().getItems().stream()
                            .filter(p -> p.getMetadata().getDeletionTimestamp() != null).count() >= 5);
            editDeployment("web", d -> {
                d.getSpec().setPaused(false);
                return d;
            });
            awaitRolledOut("web", 120);
            awaitOldPodsGone("web", 60);
            var after = target(awaitPolicy("db", p -> "Applied".equals(target(p, "web").getState())
                    && target(p, "web").getBasisReplicas() != null && target(p, "web").getBasisReplicas() == 3), "web");
            System.out.printf("DisruptionIT HPA 8 -> 3 then a rollout: %s; terminatingSeen %s; the pods held at most "
                    + "%d at a pod event, %d every 100 ms, of %d%n", after.getExplanation(),
                    after.getTerminatingSeen() == null ? "none"
                            : after.getTerminatingSeen().stream().map(m -> m.getRevision() + ": " + m.getPods())
                                    .toList(),
                    events.peak(), polled.peak(), BUDGET);
            // the rules: 3 + 1 surge + 1 step of old pods terminating; the scaled-down pods were planned for while they
            // terminated, and are not remembered
            assertThat(after.getPeakPods()).as(after.getExplanation()).isEqualTo(3 + 1 + 1);
            assertThat(events.peak()).as("most the pods held at a pod event").isLessThanOrEqualTo(BUDGET);
            assertThat(polled.peak()).as("most the pods held every 100 ms").isLessThanOrEqualTo(BUDGET);
        }
    }
}
