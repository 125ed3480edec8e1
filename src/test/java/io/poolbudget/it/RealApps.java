package io.poolbudget.it;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * The example app (examples/hikari-app, image poolbudget/hikari-app:dev) on the real node, and
 * load against it. Each Deployment's JDBC ApplicationName is {@code <namespace>.<name>}, so
 * PostgreSQL's count tells the apps apart.
 */
final class RealApps implements AutoCloseable {
    static final String IMAGE = "poolbudget/hikari-app:dev";
    private static final Pattern MAX = Pattern.compile("\"maximumPoolSize\":(\\d+)");

    private final KubernetesClient client;
    private final String ns;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final ExecutorService load = Executors.newCachedThreadPool(r -> {
        var t = new Thread(r, "e2e-load");
        t.setDaemon(true);
        return t;
    });
    private final AtomicInteger served = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private volatile boolean loading;

    RealApps(KubernetesClient client, String ns) {
        this.client = client;
        this.ns = ns;
    }

    static String appName(String ns, String name) {
        return ns + "." + name;
    }

    /** A Deployment of the example app as real services run: readiness probe, preStop delay, graceful drain. */
    static Deployment app(String ns, String name, int replicas, Map<String, String> labels, int preStopSeconds) {
        return new DeploymentBuilder()
                .withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .withNewSpec().withReplicas(replicas)
                .withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewStrategy().withNewRollingUpdate().withMaxSurge(new IntOrString(1))
                .withMaxUnavailable(new IntOrString(0)).endRollingUpdate().endStrategy()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec()
                .addToNodeSelector("poolbudget.io/real-node", "true")
                .addNewToleration().withKey("poolbudget.io/real-node").withOperator("Exists").withEffect("NoSchedule")
                .endToleration()
                .withTerminationGracePeriodSeconds((long) Math.max(30, preStopSeconds + 10))
                .addNewContainer().withName("app").withImage(IMAGE).withImagePullPolicy("Never")
                .addNewEnv().withName("APP_NAME").withValue(appName(ns, name)).endEnv()
                .addNewEnv().withName("DB_PORT").withValue("5434").endEnv()
                .addNewPort().withContainerPort(8080).endPort()
                .withNewReadinessProbe().withNewHttpGet().withPath("/actuator/health/readiness")
                .withPort(new IntOrString(8080)).endHttpGet().withPeriodSeconds(1).endReadinessProbe()
                .withNewLifecycle().withNewPreStop().withNewSleep().withSeconds((long) preStopSeconds).endSleep()
                .endPreStop().endLifecycle()
                .withNewResources().addToRequests("cpu", new Quantity("50m"))
                .addToLimits("memory", new Quantity("256Mi")).endResources()
                .endContainer().endSpec().endTemplate().endSpec().build();
    }

    /** Ready, not terminating pods of the namespace's example apps (not, say, a pooler beside them). */
    List<Pod> readyPods() {
        return client.pods().inNamespace(ns).list().getItems().stream()
                .filter(p -> p.getSpec().getContainers().stream().anyMatch(c -> IMAGE.equals(c.getImage())))
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null
                        && p.getStatus().getPodIP() != null && p.getStatus().getConditions().stream()
                                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
                .toList();
    }

    /** Two clients sending short transactions to every ready pod in turn, until {@link #close}. */
    void startLoad() {
        startLoad(2);
    }

    /** {@code clients} clients sending short transactions to every ready pod in turn, until {@link #close}. */
    void startLoad(int clients) {
        loading = true;
        for (int i = 0; i < clients; i++) {
            load.submit(() -> {
                while (loading) {
                    for (Pod p : readyPods()) {
                        for (int k = 0; k < 5 && loading; k++) {
                            get(p.getStatus().getPodIP(), "/work?ms=20");
                        }
                    }
                    pause();
                }
            });
        }
    }

    /** HikariCP's own maximumPoolSize, read from the running app. */
    int poolSize(Pod pod) {
        String body = get(pod.getStatus().getPodIP(), "/pool");
        var m = body == null ? null : MAX.matcher(body);
        if (m == null || !m.find()) {
            throw new AssertionError("pod " + pod.getMetadata().getName() + " did not report its pool: " + body);
        }
        return Integer.parseInt(m.group(1));
    }

    String loadReport() {
        return served.get() + " requests served, " + failed.get() + " failed";
    }

    private String get(String ip, String path) {
        try {
            var r = http.send(HttpRequest.newBuilder(URI.create("http://" + ip + ":8080" + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            (r.statusCode() == 200 ? served : failed).incrementAndGet();
            return r.statusCode() == 200 ? r.body() : null;
        } catch (IOException e) {
            failed.incrementAndGet(); // a pod going away mid-request; the load goes on
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        loading = false;
        load.shutdownNow();
    }
}
