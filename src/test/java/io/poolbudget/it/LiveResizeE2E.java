package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 44 at the database: resize mode Live on the JVM example app (Spring Boot, HikariCP, unmodified: the agent
 * finds its pool). One policy, three targets: a shrinks while its pods hold long transactions, b grows once a's pods
 * have confirmed, and nopool, whose app keeps its pool out of JMX (so its agent finds none), shrinks too and gets its
 * size by a rollout once its deadline passes. The operator is SIGKILLed in the middle of the change. PostgreSQL is
 * sampled every 100 ms throughout: never above the budget, and a's and b's pods are the same pods, never restarted.
 */
@Order(8)
class LiveResizeE2E extends OperatorTestBase {
    private static final int BUDGET = 40;
    private static final List<String> APPS = List.of("a", "b", "nopool");
    private static final Map<String, String> ENV = Map.of("POOLBUDGET_AGENT_IMAGE",
            "poolbudget/operator:0.1.0-SNAPSHOT");
    private static final String POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: live}
            spec:
              database: {cores: 1, budget: %d}
              injection: {preset: spring-boot-hikari, resize: Live, liveDeadlineSeconds: 30}
              targets: [{name: a, weight: %d}, {name: b, weight: %d}, {name: nopool, weight: %d}]
            """;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @BeforeAll
    static void start() {
        startOperatorAsShipped("live-resize-e2e", "5s", ENV);
    }

    @Test
    void runningPoolsShrinkFirstAndGrowWithoutARestartAndAPodWithoutAPoolRollsInstead() throws Exception {
        create(RealApps.app(ns, "a", 2, Map.of(), 0));
        create(RealApps.app(ns, "b", 1, Map.of(), 0));
        var nopool = RealApps.app(ns, "nopool", 1, Map.of(), 0);
        nopool.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()
                .add(new EnvVar("SPRING_DATASOURCE_HIKARI_REGISTERMBEANS", "false", null));
        create(nopool);
        for (String app : APPS) {
            awaitRolledOut(app, 240);
        }

        // the first write adds the agent: one rollout, as any first size is
        applyPolicy(POLICY.formatted(BUDGET, 3, 1, 2));
        var first = awaitSettled("live", APPS, 300);
        assertThat(target(first, "a").getResize()).isEqualTo("Live");
        assertThat(target(first, "a").getPodsConfirmed()).isEqualTo(2);
        assertThat(target(first, "nopool").getPodsConfirmed()).as("its agent finds no pool").isZero();
        assertThat(target(first, "nopool").getPodsHoldingSize()).as("it started with its size").isEqualTo(1);
        Map<String, Integer> before = sizes(first);
        Map<String, Set<String>> uids = uids();

        Set<String> apps = APPS.stream().map(a -> RealApps.appName(ns, a)).collect(Collectors.toSet());
        try (var sampler = ConnectionSampler.start(apps)) {
            List<CompletableFuture<?>> held = holdLongTransactions("a", 3, 6000);
            long changed = System.nanoTime();
            applyPolicy(POLICY.formatted(BUDGET, 1, 3, 1)); // a and nopool lower, b rises: shrink first
            var published = awaitPolicy("live", p -> target(p, "a").getAppliedPoolSize() != null
                    && target(p, "a").getAppliedPoolSize() < before.get("a"), 60);
            int aSize = target(published, "a").getAppliedPoolSize();
            killOperator("live-resize-e2e-2", withWindow()); // mid-change: a's pods may not have confirmed yet
            var settled = awaitSettled("live", APPS, 300);
            double seconds = (System.nanoTime() - changed) / 1e9;
            Map<String, Integer> after = sizes(settled);
            CompletableFuture.allOf(held.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            System.out.printf("LiveResizeE2E: sizes %s -> %s (a published %d) in %.1f s; at PostgreSQL %s%n", before,
                    after, aSize, seconds, sampler.lastByApp());
            assertThat(after.get("a")).isLessThan(before.get("a"));
            assertThat(after.get("b")).isGreaterThan(before.get("b"));
            assertThat(after.get("nopool")).isLessThan(before.get("nopool"));
            sampler.assertWithin("live resize: a shrinks, b grows, nopool rolls, operator killed", BUDGET);

            Map<String, Set<String>> now = uids();
            assertThat(now.get("a")).as("a's pods took their size live: the same pods").isEqualTo(uids.get("a"));
            assertThat(now.get("b")).as("b's pods took their size live: the same pods").isEqualTo(uids.get("b"));
            assertThat(now.get("nopool")).as("nopool's pod gave no evidence: replaced by a rollout")
                    .doesNotContainAnyElementsOf(uids.get("nopool"));
            assertThat(restarts("a") + restarts("b")).as("container restarts of live-mode pods").isZero();
            try (var real = new RealApps(client, ns)) {
                for (String app : List.of("a", "b")) {
                    assertThat(pods(app)).allSatisfy(p -> assertThat(real.poolSize(p)).as(app + "'s own pool")
                            .isEqualTo(after.get(app)));
                }
            }
            assertThat(target(settled, "a").getPodsConfirmed()).isEqualTo(2);
            assertThat(target(settled, "b").getPodsConfirmed()).isEqualTo(1);
            assertThat(operatorLog()).doesNotContain("Exception");
        }
    }

    private static Map<String, String> withWindow() {
        var env = new java.util.HashMap<>(ENV);
        env.put("POOLBUDGET_STABILIZATION_WINDOW", "5s");
        return env;
    }

    /** {@code perPod} requests to each of the app's pods, each holding a connection in a transaction for {@code ms}. */
    private List<CompletableFuture<?>> holdLongTransactions(String app, int perPod, int ms) {
        List<CompletableFuture<?>> held = new ArrayList<>();
        for (Pod p : pods(app)) {
            for (int i = 0; i < perPod; i++) {
                held.add(http.sendAsync(HttpRequest.newBuilder(URI.create("http://" + p.getStatus().getPodIP()
                        + ":8080/work?ms=" + ms)).timeout(Duration.ofSeconds(30)).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
        }
        return held;
    }

    private static Map<String, Integer> sizes(PoolPolicy p) {
        Map<String, Integer> sizes = new java.util.LinkedHashMap<>();
        APPS.forEach(app -> sizes.put(app, target(p, app).getAppliedPoolSize()));
        return sizes;
    }

    private Map<String, Set<String>> uids() {
        Map<String, Set<String>> uids = new java.util.HashMap<>();
        APPS.forEach(app -> uids.put(app, pods(app).stream().map(p -> p.getMetadata().getUid())
                .collect(Collectors.toSet())));
        return uids;
    }

    private int restarts(String app) {
        return pods(app).stream().flatMap(p -> p.getStatus().getContainerStatuses().stream())
                .mapToInt(s -> s.getRestartCount() == null ? 0 : s.getRestartCount()).sum();
    }

    private List<Pod> pods(String app) {
        return livePods(app).stream().filter(p -> p.getStatus().getPodIP() != null).toList();
    }
}
