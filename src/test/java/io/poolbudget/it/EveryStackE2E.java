package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSourceBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 43 at the database: four apps of three stacks on one budget, each sized where it reads its size. A Go service
 * of ours on pgxpool and pgx's own url_shortener (a public app we did not write, unmodified: it reads DATABASE_URL
 * only) take it in their connection string, a Node.js service on node-postgres in its PG_POOL_MAX, the JVM example
 * app in its HikariCP variables; all refer to $(POOLBUDGET_MAX_POOL_SIZE) from the operator's ConfigMap (mode
 * EnvFrom) and keep the password in their Secret. Counted by PostgreSQL every 100 ms through a scale, a rollout and a
 * shrink-first change of weights.
 */
@Order(7)
class EveryStackE2E extends OperatorTestBase {
    private static final String GO_IMAGE = "poolbudget/pgx-app:dev";
    private static final String NODE_IMAGE = "poolbudget/node-app:dev";
    private static final int BUDGET = 40;
    private static final List<String> APPS = List.of("go", "shortener", "node", "jvm");
    private static final String POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: stacks}
            spec:
              database: {cores: 1, budget: %d}
              injection: {mode: EnvFrom, appDefaultPoolSize: 10}
              targets: [{name: go}, {name: shortener}, {name: node}, {name: jvm, weight: %d}]
            """;
    private static final Pattern MAX_CONNS = Pattern.compile("\"maxConns\":(\\d+)");
    private static final Pattern NODE_MAX = Pattern.compile("\"max\":(\\d+)");

    @BeforeAll
    static void start() {
        startOperatorAsShipped("every-stack-e2e", "5s");
    }

    private String url(String app, boolean sized) {
        return "postgres://app:$(DB_PASSWORD)@10.88.0.1:5434/app?application_name=" + RealApps.appName(ns, app)
                + (sized ? "&pool_max_conns=$(POOLBUDGET_MAX_POOL_SIZE)&pool_min_conns=$(POOLBUDGET_MIN_POOL_SIZE)"
                        : "");
    }

    /**
     * A Deployment on the real node: our Go or Node.js service (readiness on /healthz), or url_shortener as its README
     * runs it.
     */
    private Deployment app(String name, int replicas, boolean shortener) {
        var container = new io.fabric8.kubernetes.api.model.ContainerBuilder().withName("app")
                .withImage(name.equals("node") ? NODE_IMAGE : GO_IMAGE)
                .withImagePullPolicy("Never").withEnv(password(), new EnvVar("DATABASE_URL", url(name, false), null))
                .withNewResources().addToLimits("memory", new io.fabric8.kubernetes.api.model.Quantity("64Mi"))
                .endResources();
        if (shortener) {
            container.withCommand("/url_shortener");
        } else {
            container.withNewReadinessProbe().withNewHttpGet().withPath("/healthz").withPort(new IntOrString(8080))
                    .endHttpGet().withPeriodSeconds(1).endReadinessProbe();
        }
        return new DeploymentBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
                .withReplicas(replicas).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewStrategy().withNewRollingUpdate().withMaxSurge(new IntOrString(1))
                .withMaxUnavailable(new IntOrString(0)).endRollingUpdate().endStrategy()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata().withNewSpec()
                .addToNodeSelector("poolbudget.io/real-node", "true")
                .addNewToleration().withKey("poolbudget.io/real-node").withOperator("Exists").withEffect("NoSchedule")
                .endToleration().withTerminationGracePeriodSeconds(10L).withContainers(container.build())
                .endSpec().endTemplate().endSpec().build();
    }

    private static EnvVar password() {
        return new EnvVarBuilder().withName("DB_PASSWORD").withNewValueFrom()
                .withNewSecretKeyRef("password", "db", false)
                .endValueFrom().build();
    }

    /** The user's edit: read the operator's ConfigMap, and refer to its keys where the stack reads its size. */
    private void readTheOperatorsValues(String name, boolean jvm) {
        editDeployment(name, d -> {
            // node-postgres takes no size from its URL: its own variable refers to the operator's
            Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
            c.setEnvFrom(List.of(new EnvFromSourceBuilder().withNewConfigMapRef()
                    .withName("poolbudget-stacks-deployment-" + name).endConfigMapRef().build()));
            List<EnvVar> env = new ArrayList<>(c.getEnv());
            if (name.equals("node")) {
                env.add(new EnvVar("PG_POOL_MAX", "$(POOLBUDGET_MAX_POOL_SIZE)", null));
            } else if (jvm) {
                env.add(new EnvVar("SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE", "$(POOLBUDGET_MAX_POOL_SIZE)", null));
                env.add(new EnvVar("SPRING_DATASOURCE_HIKARI_MINIMUMIDLE", "$(POOLBUDGET_MIN_POOL_SIZE)", null));
            } else {
                env.replaceAll(
                        e -> e.getName().equals("DATABASE_URL") ? new EnvVar("DATABASE_URL", url(name, true), null)
                                : e);
            }
            c.setEnv(env);
            return d;
        });
    }

    @Test
    void goJvmAndAPublicAppShareOneBudgetEachSizedWhereItReadsItsSize() throws Exception {
        create(new SecretBuilder().withNewMetadata().withName("db").endMetadata().addToStringData("password", "app")
                .build());
        var jvm = RealApps.app(ns, "jvm", 1, Map.of(), 0);
        jvm.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().add(password());
        create(app("go", 2, false));
        create(app("shortener", 1, true));
        create(app("node", 1, false));
        create(jvm);
        for (String app : APPS) {
            awaitRolledOut(app, 240);
        }
        Set<String> apps = Set.copyOf(APPS.stream().map(a -> RealApps.appName(ns, a)).toList());
        Map<String, Integer> before;
        try (var sampler = ConnectionSampler.start(apps)) {
            TimeUnit.SECONDS.sleep(2);
            before = sampler.lastByApp();
        }

        // the policy first: its targets do not read its values yet, which it says before any pod could start
        applyPolicy(POLICY.formatted(BUDGET, 1));
        var unread = awaitPolicy("stacks", p -> APPS.stream()
                .allMatch(t -> target(p, t) != null && "Conflict".equals(target(p, t).getState())), 60);
        assertThat(target(unread, "go").getMessage()).contains("no container reads the operator's values")
                .contains("configMapRef: {name: poolbudget-stacks-deployment-go}");
        assertThat(unread.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Ready")).singleElement()
                .satisfies(c -> assertThat(c.getStatus()).isEqualTo("False"));

        readTheOperatorsValues("go", false);
        readTheOperatorsValues("shortener", false);
        readTheOperatorsValues("node", false);
        readTheOperatorsValues("jvm", true);
        var settled = awaitSettled("stacks", APPS, 240);
        Map<String, Integer> sizes = sizes(settled);
        Map<String, Integer> after;
        try (var sampler = ConnectionSampler.start(apps)) {
            awaitPools(sizes);
            Awaitility.await("each app's connections at PostgreSQL").atMost(60, TimeUnit.SECONDS)
                    .until(() -> held(sampler, "shortener") == sizes.get("shortener"));
            // a backend of a pod that has just gone can outlive it at PostgreSQL by a sample or two: each app is held
            // to its size times its pods once that has passed, and the message names the app that is not
            Map<String, Integer> last = new java.util.HashMap<>();
            try {
                Awaitility.await("each app within its size times its pods").atMost(20, TimeUnit.SECONDS)
                        .pollInterval(200, TimeUnit.MILLISECONDS).until(() -> {
                            last.clear();
                            last.putAll(sampler.lastByApp());
                            return APPS.stream().allMatch(app -> last.getOrDefault(RealApps.appName(ns, app),
                                    0) <= sizes.get(app) * pods(app).size());
                        });
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                // falls through to the assertions below, which name the app over its bound
            }
            after = Map.copyOf(last);
        }
        System.out.printf("EveryStackE2E: before the policy %s; after it, sizes %s, at PostgreSQL %s%n", before, sizes,
                after);
        for (String app : APPS) {
            assertThat(after.getOrDefault(RealApps.appName(ns, app), 0)).as(app)
                    .isLessThanOrEqualTo(sizes.get(app) * pods(app).size());
        }

        try (var sampler = ConnectionSampler.start(apps)) {
            client.apps().deployments().inNamespace(ns).withName("jvm").scale(2); // a scale
            awaitSettled("stacks", APPS, 240);
            client.apps().deployments().inNamespace(ns).withName("go").rolling().restart(); // a rollout
            awaitSettled("stacks", APPS, 240);
            applyPolicy(POLICY.formatted(BUDGET, 3)); // shrink first: go and shortener lower, then jvm rises
            var moved = awaitSettled("stacks", APPS, 240);
            assertThat(target(moved, "jvm").getPoolSize()).isGreaterThan(sizes.get("jvm"));
            awaitPools(sizes(moved));
            System.out.printf("EveryStackE2E: weights 1/1/1/3: sizes %s, at PostgreSQL %s%n", sizes(moved),
                    sampler.lastByApp());
            sampler.assertWithin("go, url_shortener, node, jvm: scale, rollout, weights", BUDGET);
        }
    }

    private static Map<String, Integer> sizes(PoolPolicy p) {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        for (String app : APPS) {
            sizes.put(app, target(p, app).getPoolSize());
        }
        return sizes;
    }

    /**
     * Every running pod's own pool: pgxpool's MaxConns (our Go service), pg.Pool's max (the Node.js one), HikariCP's
     * maximumPoolSize (the JVM app).
     */
    private void awaitPools(Map<String, Integer> sizes) {
        try (var real = new RealApps(client, ns)) {
            Awaitility.await("the pods' own pools").atMost(60, TimeUnit.SECONDS).untilAsserted(() -> {
                assertThat(pods("go")).isNotEmpty()
                        .allSatisfy(p -> assertThat(max(p, MAX_CONNS)).isEqualTo(sizes.get("go")));
                assertThat(pods("node")).isNotEmpty()
                        .allSatisfy(p -> assertThat(max(p, NODE_MAX)).isEqualTo(sizes.get("node")));
                assertThat(pods("jvm")).isNotEmpty()
                        .allSatisfy(p -> assertThat(real.poolSize(p)).isEqualTo(sizes.get("jvm")));
            });
        }
    }

    private List<Pod> pods(String app) {
        return client.pods().inNamespace(ns).withLabel("app", app).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus().getPodIP() != null)
                .toList();
    }

    private int held(ConnectionSampler sampler, String app) {
        return sampler.lastByApp().getOrDefault(RealApps.appName(ns, app), 0);
    }

    private static int max(Pod pod, Pattern field) throws Exception {
        var r = Scrape.HTTP
                .send(HttpRequest.newBuilder(URI.create("http://" + pod.getStatus().getPodIP() + ":8080/pool"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        var m = field.matcher(r.body());
        if (!m.find()) {
            throw new AssertionError("pod " + pod.getMetadata().getName() + " did not report its pool: " + r.body());
        }
        return Integer.parseInt(m.group(1));
    }
}
