package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The promise, measured at the database: real Spring Boot + HikariCP pods on the real node, a real
 * PostgreSQL, and a sampler reading pg_stat_activity every 100 ms through each transition while the
 * apps serve load. A scenario fails if the apps' connections ever exceed the budget, or if a pod's
 * HikariCP (asked directly) runs another pool size than the policy's status says was applied.
 */
@Order(5)
// Its tests run side by side (each in a namespace of its own, with apps and a sampler of its own), but for those
// marked @Alone; two at a time
@Execution(ExecutionMode.CONCURRENT)
@ExtendWith(Alone.Turns.class)
@Alone.AtMost(2)
class RealPoolsE2E extends OperatorTestBase {
    private static final Map<String, String> DB = Map.of("db", "e2e");
    private static final String POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: db}
            spec:
              database: {cores: %d, effectiveSpindles: %d}
              injection: {preset: spring-boot-hikari}
              targets: [{selector: {matchLabels: {db: e2e}}%s}]
            """;
    private RealApps apps;
    private PodAddresses pods;

    @BeforeAll
    static void start() {
        startOperator("e2e", "0s");
    }

    @AfterEach
    void stopLoad() {
        if (apps != null) {
            apps.close();
        }
        if (pods != null) {
            pods.close();
        }
    }

    private ConnectionSampler sampler(String... names) {
        pods = pods == null ? new PodAddresses(client, ns) : pods;
        return ConnectionSampler.start(Stream.of(names).map(n -> RealApps.appName(ns, n)).collect(Collectors.toSet()))
                .naming(pods);
    }

    private PoolPolicy policy(int cores, int spindles) {
        return applyPolicy(POLICY.formatted(cores, spindles, ""));
    }

    /** Sized, rolled out, every pod's HikariCP at the applied size, and PostgreSQL's count settled on it. */
    private PoolPolicy awaitSettled(Set<String> names) {
        var policy = awaitPolicy("db", p -> p.getStatus().getTargets().size() == names.size()
                && p.getStatus().getTargets().stream().allMatch(t -> "Applied".equals(t.getState())));
        names.forEach(this::awaitRolledOut);
        names.forEach(n -> awaitOldPodsGone(n, defaultWait()));
        apps = apps == null ? new RealApps(client, ns) : apps;
        for (String name : names) {
            int applied = target(policy, name).getAppliedPoolSize();
            var pods = livePods(name);
            assertThat(pods).as("pods of %s", name).isNotEmpty();
            pods.forEach(p -> assertThat(apps.poolSize(p)).as("HikariCP's maximumPoolSize in pod %s (status says %d)",
                    p.getMetadata().getName(), applied).isEqualTo(applied));
        }
        long expected = names.stream().mapToLong(n -> (long) target(policy, n).getAppliedPoolSize()
                * deployment(n).getSpec().getReplicas()).sum();
        try (var count = sampler(names.toArray(String[]::new))) {
            Awaitility.await("PostgreSQL's count of " + names + " settling at " + expected).atMost(60, TimeUnit.SECONDS)
                    .pollInterval(200, TimeUnit.MILLISECONDS).until(() -> count.now() == expected);
        }
        return policy;
    }

    private long budget(PoolPolicy p) {
        return p.getStatus().getBudget().getConnections();
    }

    @Test
    void aRolloutOfAppsThatShutDownGracefullyStaysWithinTheBudget() {
        // 3 replicas + 1 surge + 1 terminating = 5 peak pods; budget 7 × 2 + 1 = 15 -> 3 per pod
        create(RealApps.app(ns, "api", 3, DB, 3));
        var p = policy(7, 1);
        p = awaitSettled(Set.of("api"));
        assertThat(target(p, "api").getAppliedPoolSize()).isEqualTo(3);
        rollOutUnderLoad("api", "rollout with preStop 3 s + graceful drain");
        System.out.println("E2E load: " + apps.loadReport());
    }

    /** A change of the app's own (a new config value) rolls it out, with graceful shutdowns, under load. */
    private void rollOutUnderLoad(String name, String scenario) {
        try (var sampler = sampler(name)) {
            apps.startLoad();
            rollOut(name, "2");
            sampler.assertWithin(scenario, budget(awaitSettled(Set.of(name))));
        }
    }

    private void rollOut(String name, String release) {
        editDeployment(name, d -> {
            var env = d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv();
            env.removeIf(e -> e.getName().equals("RELEASE"));
            env.add(new EnvVar("RELEASE", release, null));
            return d;
        });
        awaitRolledOut(name);
    }

    /**
     * A preStop of 12 s outlasts a step of this rollout (a new pod is Ready in about 8 s here), so old
     * pods of two steps terminate at once. The operator reads the preStop from the template and how
     * quickly the pods turn Ready, and plans for ceil(12 / 8) = 2 steps of old pods before the next
     * rollout. Under the one-step rule, the first such rollout measured 17 and 18 of 15.
     */
    @Test
    @Alone // its plan comes from how fast the pods turn Ready
    void aShutdownLongerThanAStepIsPlannedForBeforeTheRollout() {
        create(RealApps.app(ns, "api", 3, DB, 12));
        policy(7, 1);
        // 3 replicas + 1 surge + 2 steps of old pods = 6 peak pods; budget 15 -> 2 per pod
        awaitPolicy("db", p -> target(p, "api") != null && target(p, "api").getPeakPods() != null
                && target(p, "api").getPeakPods() >= 6);
        var p = awaitSettled(Set.of("api"));
        var t = target(p, "api");
        assertThat(t.getExplanation()).containsAnyOf("may terminate at once", "seen terminating at once");
        assertThat(t.getAppliedPoolSize()).isEqualTo(15 / t.getPeakPods().intValue());
        rollOutUnderLoad("api", "rollout with preStop 12 s (2 steps)");
    }

    @Test
    void raisingTheHpaMaximumShrinksPoolsBeforeTheScaleUp() {
        create(RealApps.app(ns, "api", 2, DB, 2));
        create(hpa("api", 2, 2));
        // planned for the HPA's maximum: 2 + 1 + 1 = 4 peak pods; budget 6 × 2 = 12 -> 3 per pod
        var p = policy(6, 0);
        p = awaitSettled(Set.of("api"));
        assertThat(target(p, "api").getAppliedPoolSize()).isEqualTo(3);
        try (var sampler = sampler("api")) {
            apps.startLoad();
            setHpa("api", 2, 4); // 4 + 1 + 1 = 6 peak pods -> 2 per pod
            awaitPolicy("db", targetState("api", "Applied", 2));
            awaitRolledOut("api");
            setHpa("api", 3, 4); // the HPA adds a pod, at the smaller size
            Awaitility.await("the HPA scaling api to 3").atMost(60, TimeUnit.SECONDS)
                    .until(() -> deployment("api").getSpec().getReplicas() == 3);
            p = awaitSettled(Set.of("api"));
            sampler.assertWithin("HPA max 2 -> 4, then a scale-up to 3", budget(p));
        }
    }

    @Test
    @Alone // it opens 30 connections at once: with the others beside it, near PostgreSQL's max_connections of 100
    void aNewDeploymentJoiningTheSelectorIsFittedIn() {
        // alone: 1 + 1 + 1 = 3 peak pods of a budget of 15 × 2 = 30 -> 10 per pod (HikariCP's default)
        create(RealApps.app(ns, "orders", 1, DB, 2));
        var p = policy(15, 0);
        p = awaitSettled(Set.of("orders"));
        assertThat(target(p, "orders").getAppliedPoolSize()).isEqualTo(10);
        try (var sampler = sampler("orders", "billing")) {
            apps.startLoad();
            // a new service at HikariCP's default; then 6 peak pods -> 5 per pod each
            create(RealApps.app(ns, "billing", 1, DB, 2));
            p = awaitSettled(Set.of("orders", "billing"));
            assertThat(target(p, "billing").getAppliedPoolSize()).isEqualTo(5);
            sampler.assertWithin("a new Deployment joins the selector", budget(p));
        }
    }

    @Test
    void oneShrinksBeforeTheOtherGrows() {
        // a and b, 1 replica each, 3 peak pods each; budget 6 × 2 = 12; weights 3:1 -> 3 and 1, then 1:3
        create(RealApps.app(ns, "a", 1, Map.of("db", "e2e", "tier", "a"), 2));
        create(RealApps.app(ns, "b", 1, Map.of("db", "e2e", "tier", "b"), 2));
        applyPolicy(weighted(3, 1));
        awaitSettled(Set.of("a", "b"));
        try (var sampler = sampler("a", "b")) {
            apps.startLoad();
            applyPolicy(weighted(1, 3));
            awaitPolicy("db", targetState("a", "Applied", 1).and(targetState("b", "Applied", 3)));
            var p = awaitSettled(Set.of("a", "b"));
            sampler.assertWithin("shrink one, grow another", budget(p));
        }
    }

    private static String weighted(int a, int b) {
        return """
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db}
                spec:
                  database: {cores: 6}
                  injection: {preset: spring-boot-hikari}
                  targets:
                    - {selector: {matchLabels: {tier: a}}, weight: %d}
                    - {selector: {matchLabels: {tier: b}}, weight: %d}
                """.formatted(a, b);
    }

    private void setHpa(String name, int min, int max) {
        editRetrying(client.autoscaling().v2().horizontalPodAutoscalers().inNamespace(ns).withName(name), h -> {
            h.getSpec().setMinReplicas(min);
            h.getSpec().setMaxReplicas(max);
            return h;
        });
    }

    private static io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler hpa(String name, int min,
            int max) {
        return new HorizontalPodAutoscalerBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withNewScaleTargetRef("apps/v1", "Deployment", name).withMinReplicas(min)
                .withMaxReplicas(max).endSpec().build();
    }
}
