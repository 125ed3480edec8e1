package io.poolbudget.it;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.TargetStatus;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;

/**
 * Cluster ITs that run the packaged operator: one operator process per test class (started by
 * {@link #startOperator}), a fresh namespace per test, and helpers to build workloads and read
 * what the operator did.
 */
@ClusterTest
abstract class OperatorTestBase {
    static final String MAX = "HIKARI_MAXIMUM_POOL_SIZE";
    static final String MIN = "HIKARI_MINIMUM_IDLE";
    /** PoolPolicy db sizing Deployment web with the hikari-env preset; format it with the database's cores. */
    static final String WEB_POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: db}
            spec:
              database: {cores: %d}
              injection: {preset: hikari-env}
              targets: [{name: web}]
            """;
    /** PoolPolicy db: a budget of 200 for every Deployment labelled db=orders, with the hikari-env preset. */
    static final String ORDERS_POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: db}
            spec:
              database: {cores: 1, budget: 200}
              injection: {preset: hikari-env}
              targets: [{selector: {matchLabels: {db: orders}}}]
            """;
    private static final StackWalker CALLER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    /** Per test class (classes of the two tiers run at the same time): its operator and the namespaces it made. */
    private static final Map<Class<?>, OperatorProcess> operators = new ConcurrentHashMap<>();
    private static final Map<Class<?>, List<String>> namespaces = new ConcurrentHashMap<>();

    /** The cluster of this class's tier ({@link TestCluster#of}). */
    final KubernetesClient client = TestCluster.of(getClass()).client();
    /** This class's operator process, or null where the class starts none. */
    OperatorProcess operator;
    String ns;

    /**
     * What {@code kubectl rollout restart} does: a strategic merge patch of the template's restartedAt annotation, with
     * no resourceVersion, so it never conflicts with the Deployment controller's or the operator's writes.
     */
    void rolloutRestart(String deployment, String restartedAt) {
        client.apps().deployments().inNamespace(ns).withName(deployment).patch(
                PatchContext.of(PatchType.STRATEGIC_MERGE),
                "{\"spec\":{\"template\":{\"metadata\":{\"annotations\":{\"kubectl.kubernetes.io/restartedAt\":\""
                        + restartedAt + "\"}}}}}");
    }

    /**
     * A read-modify-write done again on a conflict (client-go's RetryOnConflict): a controller updates the object's
     * status between our read and our write (the Deployment controller during a rollout, the disruption controller a
     * PodDisruptionBudget's, the HPA controller an HPA's, KWOK a node's), and the API server refuses the stale write
     * with 409. Anything but a conflict, or a fifth conflict in a row, fails the test.
     */
    static <T extends io.fabric8.kubernetes.api.model.HasMetadata> void editRetrying(
            io.fabric8.kubernetes.client.dsl.Resource<T> resource, java.util.function.UnaryOperator<T> change) {
        for (int attempt = 1;; attempt++) {
            try {
                resource.edit(change);
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 5) {
                    throw e;
                }
            }
        }
    }

    void editDeployment(String deployment, java.util.function.UnaryOperator<Deployment> change) {
        editRetrying(client.apps().deployments().inNamespace(ns).withName(deployment), change);
    }

    /**
     * Call from a {@code @BeforeAll} of the test class, with its stabilisation window (e.g. "0s"). Over-budget moments
     * are reported at once: a KWOK pod holds exactly the pool its spec declares from its first to its last moment.
     */
    static void startOperator(String name, String window) {
        start(CALLER.getCallerClass(), name, Map.of("POOLBUDGET_STABILIZATION_WINDOW", window,
                "POOLBUDGET_LIVE_OVER_BUDGET_GRACE", "0s"));
    }

    /** As {@link #startOperator}, with the shipped grace before an over-budget moment is reported (real pods). */
    static void startOperatorAsShipped(String name, String window) {
        start(CALLER.getCallerClass(), name, Map.of("POOLBUDGET_STABILIZATION_WINDOW", window));
    }

    /** As {@link #startOperatorAsShipped}, with more of the operator's settings. */
    static void startOperatorAsShipped(String name, String window, Map<String, String> more) {
        var env = new java.util.HashMap<>(more);
        env.put("POOLBUDGET_STABILIZATION_WINDOW", window);
        start(CALLER.getCallerClass(), name, env);
    }

    private static void start(Class<?> testClass, String name, Map<String, String> env) {
        var cluster = TestCluster.of(testClass);
        ClusterFixture.installCrds(cluster.client());
        operators.put(testClass, OperatorProcess.start(cluster, name, env));
    }

    /** Stops this class's operator and starts another in its place, with this configuration. */
    void restartOperator(String name, Map<String, String> env) {
        operator.stop();
        operator = OperatorProcess.start(TestCluster.of(getClass()), name, env);
        operators.put(getClass(), operator);
    }

    /** SIGKILLs this class's operator (no shutdown of any kind) and starts another in its place. */
    void killOperator(String name, Map<String, String> env) {
        operator.kill();
        operator = OperatorProcess.start(TestCluster.of(getClass()), name, env);
        operators.put(getClass(), operator);
    }

    /** Stops the class's operator after its last test, and deletes the namespaces its tests made ({@link LaneLock}). */
    static void cleanUp(Class<?> testClass) {
        var operator = operators.remove(testClass);
        if (operator != null) {
            operator.stop();
        }
        List<String> made = namespaces.remove(testClass);
        if (made != null) {
            release(TestCluster.of(testClass).client(), made);
        }
    }

    private static void release(KubernetesClient client, List<String> made) {
        // With this class's operator gone nobody removes the policies' finalizers: left on, the namespaces would
        // stay Terminating, and the next operator watching every namespace (InstallE2E's cluster-wide install)
        // would spend its start cleaning up after other tests.
        // a class run on its own, on a cluster no other class installed the CRDs on, has no policies to release
        boolean served = client.supports(PoolPolicy.class);
        for (String n : served ? made : List.<String>of()) {
            client.resources(PoolPolicy.class).inNamespace(n).list().getItems().stream()
                    .filter(p -> p.getMetadata().getFinalizers() != null
                            && !p.getMetadata().getFinalizers().isEmpty())
                    .forEach(p -> {
                        try {
                            client.resources(PoolPolicy.class).inNamespace(n).withName(p.getMetadata().getName())
                                    .edit(e -> {
                                        e.getMetadata().setFinalizers(new ArrayList<>());
                                        return e;
                                    });
                        } catch (io.fabric8.kubernetes.client.KubernetesClientException gone) {
                            // deleted meanwhile: nothing left to hold the namespace
                        }
                    });
        }
        ClusterFixture.deleteNamespaces(client, made);
    }

    @BeforeEach
    void namespace() {
        operator = operators.get(getClass());
        ns = ClusterFixture.createNamespace(client, "it-" + getClass().getSimpleName().toLowerCase().replace("it", ""));
        made().add(ns);
    }

    private List<String> made() {
        return namespaces.computeIfAbsent(getClass(), c -> new CopyOnWriteArrayList<>());
    }

    /** Another namespace for this test, deleted with the others. */
    String otherNamespace() {
        String other = ClusterFixture.createNamespace(client, "it-" + getClass().getSimpleName().toLowerCase()
                .replace("it", "") + "-b");
        made().add(other);
        return other;
    }

    /** Runs {@code steps} with {@link #ns} set to {@code namespace}: every helper then works there. */
    void in(String namespace, Runnable steps) {
        String home = ns;
        ns = namespace;
        try {
            steps.run();
        } finally {
            ns = home;
        }
    }

    /** What {@code read} returns with {@link #ns} set to {@code namespace}. */
    <T> T from(String namespace, java.util.function.Supplier<T> read) {
        String home = ns;
        ns = namespace;
        try {
            return read.get();
        } finally {
            ns = home;
        }
    }

    static Deployment deployment(String name, int replicas, Map<String, String> labels) {
        return ClusterFixture.deployment(name, replicas, labels);
    }

    <T extends HasMetadata> T create(T resource) {
        return client.resource(resource).inNamespace(ns).create();
    }

    PoolPolicy applyPolicy(String yaml) {
        var policy = client.resources(PoolPolicy.class)
                .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).item();
        policy.getMetadata().setNamespace(ns);
        return client.resource(policy).inNamespace(ns).serverSideApply();
    }

    /** The operator's log, for a failure message. */
    String operatorLog() {
        return operator == null ? "(no operator process)" : "log: " + operator.log();
    }

    /**
     * How long a wait without its own bound lasts: 90 s on KWOK, 180 s where real pods start (a JVM app's pod takes
     * up to a minute to turn Ready while a class's tests start theirs side by side on 2 cores, more on a slower
     * machine). A longer bound costs nothing while the state comes.
     */
    int defaultWait() {
        return getClass().getSimpleName().endsWith("E2E") ? 180 : 90;
    }

    /** Waits {@link #defaultWait}; on time-out fails with the status last seen, so a CI log explains itself. */
    PoolPolicy awaitPolicy(String name, Predicate<PoolPolicy> condition) {
        return awaitPolicy(name, condition, defaultWait());
    }

    PoolPolicy awaitPolicy(String name, Predicate<PoolPolicy> condition, int seconds) {
        var resource = client.resources(PoolPolicy.class).inNamespace(ns).withName(name);
        try {
            return resource.waitUntilCondition(p -> p != null && p.getStatus() != null && condition.test(p), seconds,
                    TimeUnit.SECONDS);
        } catch (KubernetesClientTimeoutException e) {
            var last = resource.get();
            throw new AssertionError("PoolPolicy " + ns + "/" + name + " did not reach the expected state in " + seconds
                    + " s; "
                    + "its status: " + (last == null ? "(gone)" : Serialization.asYaml(last.getStatus()))
                    + PodStates.of(client, ns) + "operator log: " + operatorLog(), e);
        }
    }

    /**
     * Waits up to 30 s for the namespace's Events to satisfy the assertion: the operator sends Events
     * off its reconcile thread, so one may land a moment after the status that caused it.
     */
    void awaitEvents(Consumer<List<Event>> assertion) {
        Awaitility.await().atMost(30, TimeUnit.SECONDS).pollInterval(200, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> assertion.accept(client.v1().events().inNamespace(ns).list().getItems()));
    }

    static TargetStatus target(PoolPolicy p, String name) {
        return p.getStatus().getTargets().stream().filter(t -> t.getName().equals(name)).findFirst().orElse(null);
    }

    static Predicate<PoolPolicy> targetState(String name, String state, int size) {
        return p -> {
            var t = target(p, name);
            return t != null && state.equals(t.getState()) && Integer.valueOf(size).equals(t.getPoolSize())
                    && Integer.valueOf(size).equals(t.getAppliedPoolSize());
        };
    }

    Deployment deployment(String name) {
        return client.apps().deployments().inNamespace(ns).withName(name).get();
    }

    /** The value of an env var in the Deployment's pod template (first container), or null. */
    String templateEnv(String deployment, String variable) {
        return env(deployment(deployment).getSpec().getTemplate().getSpec().getContainers().get(0).getEnv(), variable);
    }

    static String env(List<EnvVar> env, String variable) {
        return env == null ? null : env.stream().filter(e -> e.getName().equals(variable)).map(EnvVar::getValue)
                .findFirst().orElse(null);
    }

    /**
     * The policy settled: every target Applied, every Deployment rolled out, no pod of the namespace terminating any
     * more, and then the policy's status after all that (each wait up to {@code seconds}).
     */
    PoolPolicy awaitSettled(String policy, List<String> targets, int seconds) {
        awaitPolicy(policy, p -> targets.stream()
                .allMatch(t -> target(p, t) != null && "Applied".equals(target(p, t).getState())), seconds);
        for (String app : targets) {
            awaitRolledOut(app, seconds);
        }
        awaitOldPodsGone(null, seconds);
        return awaitPolicy(policy, p -> targets.stream()
                .allMatch(t -> target(p, t) != null && "Applied".equals(target(p, t).getState())), seconds);
    }

    List<Pod> livePods(String app) {
        return client.pods().inNamespace(ns).withLabel("app", app).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    /**
     * No pod of the app (of the namespace, for null) terminating any more. A Deployment counts as rolled out while its
     * old pods still shut down, and one deleted before it was Ready may still be starting, to open its pool (at the
     * app's default, when it predates the policy) after a test took the count it started from.
     */
    void awaitOldPodsGone(String app, int seconds) {
        Awaitility.await((app == null ? "" : app + "'s ") + "old pods gone").atMost(seconds, TimeUnit.SECONDS)
                .pollInterval(500, TimeUnit.MILLISECONDS)
                .until(() -> (app == null ? client.pods().inNamespace(ns) : client.pods().inNamespace(ns)
                        .withLabel("app", app)).list().getItems().stream()
                        .noneMatch(pod -> pod.getMetadata().getDeletionTimestamp() != null));
    }

    void awaitRolledOut(String name) {
        awaitRolledOut(name, defaultWait());
    }

    void awaitRolledOut(String name, int seconds) {
        try {
            rolledOut(name, seconds);
        } catch (KubernetesClientTimeoutException e) {
            throw new AssertionError("Deployment " + ns + "/" + name + " did not roll out in " + seconds + " s"
                    + PodStates.of(client, ns), e);
        }
    }

    private void rolledOut(String name, int seconds) {
        client.apps().deployments().inNamespace(ns).withName(name).waitUntilCondition(d -> d.getStatus() != null
                && d.getStatus().getObservedGeneration() != null
                && d.getStatus().getObservedGeneration() >= d.getMetadata().getGeneration()
                && d.getSpec().getReplicas().equals(d.getStatus().getUpdatedReplicas())
                && d.getSpec().getReplicas().equals(d.getStatus().getReadyReplicas())
                && d.getSpec().getReplicas().equals(d.getStatus().getReplicas()), seconds, TimeUnit.SECONDS);
    }
}
