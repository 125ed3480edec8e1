package io.poolbudget.bench;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.TargetStatus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * bench/live-resize.sh: a weight change, live vs rollout, in one run. Per run: Deployments a (N replicas) and b (N/4)
 * of the example Spring Boot + HikariCP app on the real node, one PoolPolicy (weights a 2, b 1), operator installed
 * from its image by the chart. The weights turn to a 1, b 2: a shrinks, then b grows. Measured: seconds from the
 * change to each pod holding its new size (HikariCP's own maximumPoolSize, read from the pod every 200 ms), restarts
 * and replaced pods, and PostgreSQL's count of the two apps every 100 ms against the budget.
 */
public final class LiveResizeBench {
    private static final Pattern MAX = Pattern.compile("\"maximumPoolSize\":(\\d+)");
    private static final String POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: bench, namespace: %s}
            spec:
              database: {cores: 1, budget: %d}
              injection: {preset: spring-boot-hikari, resize: %s}
              targets:
              - {name: a, weight: %d, basis: Fixed, fixedReplicas: %d}
              - {name: b, weight: %d, basis: Fixed, fixedReplicas: %d}
            """;
    private final KubernetesClient client = new KubernetesClientBuilder().build();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final String jdbc;

    private LiveResizeBench(String jdbc) {
        this.jdbc = jdbc;
    }

    record Result(String mode, int replicas, int budget, String sizes, double p50, double p99, double all,
            int restarts, int replaced, int peak, int samples) {}

    public static void main(String[] args) throws Exception {
        List<Integer> replicas = List.of(3, 20);
        List<String> modes = List.of("Live", "Rollout");
        String out = "bench/results";
        String jdbc = "jdbc:postgresql://10.88.0.1:5433/app";
        for (int i = 0; i < args.length; i += 2) {
            switch (args[i]) {
                case "--replicas" -> replicas = java.util.Arrays.stream(args[i + 1].split(",")).map(Integer::valueOf)
                        .toList();
                case "--out" -> out = args[i + 1];
                case "--modes" -> modes = List.of(args[i + 1].split(","));
                case "--jdbc" -> jdbc = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        var bench = new LiveResizeBench(jdbc);
        List<Result> results = new ArrayList<>();
        for (int n : replicas) {
            for (String mode : modes) {
                results.add(bench.run(n, mode));
                System.out.println(line(results.get(results.size() - 1)));
            }
        }
        StringBuilder table = new StringBuilder(
                """
                        # bench/live-resize.sh: a weight change (a 2:1 b -> a 1:4 b), every pod to its new size
                        # mode     replicas(a+b) budget  sizes a,b before->after   p50 s   p99 s   all s  restarts replaced  PostgreSQL peak (samples)
                        """);
        results.forEach(r -> table.append(line(r)).append('\n'));
        for (int n : replicas) {
            var live = results.stream().filter(r -> r.replicas() == n && r.mode().equals("Live")).findFirst()
                    .orElse(null);
            var rollout = results.stream().filter(r -> r.replicas() == n && r.mode().equals("Rollout")).findFirst()
                    .orElse(null);
            if (live == null || rollout == null) {
                continue;
            }
            table.append(String.format(
                    "# %d replicas: live is %.1fx faster than the rollout to every pod (%.1f s vs %.1f s)%n",
                    n, rollout.all() / live.all(), live.all(), rollout.all()));
        }
        System.out.print(table);
        Files.createDirectories(Path.of(out));
        Files.writeString(Path.of(out, "live-resize.txt"), table.toString());
        System.exit(0);
    }

    private static String line(Result r) {
        return String.format("  %-8s %3d+%-3d      %5d   %-24s %6.1f  %6.1f  %6.1f  %8d %8d  %4d of %d (%d)", r.mode(),
                r.replicas(), bReplicas(r.replicas()), r.budget(), r.sizes(), r.p50(), r.p99(), r.all(), r.restarts(),
                r.replaced(), r.peak(),
                r.budget(), r.samples());
    }

    Result run(int n, String mode) throws Exception {
        String ns = "bench-live-" + mode.toLowerCase() + "-" + n;
        reset(ns);
        // the policy sizes the Deployments for their replicas (basis Fixed) before they run a pod: no pod ever opens
        // HikariCP's default 10, nor a size planned for fewer pods (either would take more than the database's 100)
        client.apps().deployments().inNamespace(ns).resource(app(ns, "a", 0)).create();
        client.apps().deployments().inNamespace(ns).resource(app(ns, "b", 0)).create();
        int budget = Math.min(12 * n, 90);
        apply(ns, budget, mode, 2, 1); // then 1:4: a shrinks (at 3 replicas 5 -> 2, at 20 2 -> 1), b grows
        planned(ns, 60);
        Thread.sleep(2000);
        client.apps().deployments().inNamespace(ns).withName("a").scale(n);
        client.apps().deployments().inNamespace(ns).withName("b").scale(bReplicas(n));
        var before = settle(ns, n, 900);
        Thread.sleep(30_000); // the JVMs' own start-up work (JIT) is over: the change is timed on a quiet node
        Map<String, Set<String>> uids = Map.of("a", uids(ns, "a"), "b", uids(ns, "b"));
        Set<String> apps = Set.of(ns + ".a", ns + ".b");
        var peak = new AtomicInteger();
        var samples = new AtomicInteger();
        var sampler = Executors.newSingleThreadScheduledExecutor();
        try (var db = DriverManager.getConnection(jdbc, "app", "app")) {
            var query = db.prepareStatement("select count(*) from pg_stat_activity where application_name = any(?)");
            query.setArray(1, db.createArrayOf("text", apps.toArray()));
            sampler.scheduleAtFixedRate(() -> {
                try (var rs = query.executeQuery()) {
                    rs.next();
                    peak.accumulateAndGet(rs.getInt(1), Math::max);
                    samples.incrementAndGet();
                } catch (Exception e) {
                    // a missed sample; the count says how many were read
                }
            }, 0, 100, TimeUnit.MILLISECONDS);
            long start = System.nanoTime();
            apply(ns, budget, mode, 1, 4);
            Map<String, Integer> after = planned(ns, 60);
            Map<String, Double> reached = new ConcurrentHashMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(900);
            while (reached.size() < n + bReplicas(n) || !oldGone(ns)) {
                for (String app : List.of("a", "b")) {
                    for (Pod p : ready(ns, app)) {
                        if (!reached.containsKey(p.getMetadata().getUid()) && size(p) == after.get(app)) {
                            reached.put(p.getMetadata().getUid(), (System.nanoTime() - start) / 1e9);
                        }
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(ns + ": pods did not reach their sizes " + after);
                }
                Thread.sleep(200);
            }
            sampler.shutdownNow();
            sampler.awaitTermination(5, TimeUnit.SECONDS);
            List<Double> times = reached.values().stream().sorted().toList();
            int restarts = 0;
            int replaced = 0;
            for (String app : List.of("a", "b")) {
                restarts += ready(ns, app).stream().flatMap(p -> p.getStatus().getContainerStatuses().stream())
                        .mapToInt(s -> s.getRestartCount()).sum();
                Set<String> now = uids(ns, app);
                replaced += (int) uids.get(app).stream().filter(u -> !now.contains(u)).count();
            }
            var result = new Result(mode, n, budget, before.get("a") + "," + before.get("b") + " -> " + after.get("a")
                    + "," + after.get("b"), rank(times, 0.50), rank(times, 0.99), times.get(times.size() - 1),
                    restarts, replaced, peak.get(), samples.get());
            client.namespaces().withName(ns).delete();
            return result;
        }
    }

    /**
     * b's replicas: a quarter of a's (at least 1), so that moving weight from a to b frees connections in a at 20
     * replicas too, and the node (2 cores) runs the pods of one run at once.
     */
    static int bReplicas(int n) {
        return Math.max(1, n / 4);
    }

    private static double rank(List<Double> sorted, double q) {
        return sorted.get(Math.max(0, (int) Math.ceil(q * sorted.size()) - 1));
    }

    private void reset(String ns) throws InterruptedException {
        client.namespaces().withName(ns).delete();
        client.namespaces().withName(ns).waitUntilCondition(x -> x == null, 5, TimeUnit.MINUTES);
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
                .create();
    }

    private void apply(String ns, int budget, String mode, int a, int b) {
        int n = Integer.parseInt(ns.substring(ns.lastIndexOf('-') + 1));
        var policy = client.getKubernetesSerialization().unmarshal(POLICY.formatted(ns, budget, mode, a, n, b,
                bReplicas(n)),
                PoolPolicy.class);
        client.resource(policy).fieldManager("bench").forceConflicts().serverSideApply();
    }

    /** Waits until both targets are Applied and every ready pod holds its size; returns the sizes. */
    private Map<String, Integer> settle(String ns, int n, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        int b = bReplicas(n);
        while (true) {
            // the sizes are read again each time: the plan changes as the replicas it counts start
            Map<String, Integer> sizes = awaitSizes(ns, n, seconds);
            if (ready(ns, "a").size() == n && ready(ns, "b").size() == b && oldGone(ns)
                    && ready(ns, "a").stream().allMatch(p -> size(p) == sizes.get("a"))
                    && ready(ns, "b").stream().allMatch(p -> size(p) == sizes.get("b"))) {
                return sizes;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(ns + ": not settled at " + sizes);
            }
            Thread.sleep(500);
        }
    }

    /** The sizes the policy's current spec plans (status.targets[].poolSize once status has seen the spec). */
    private Map<String, Integer> planned(String ns, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            var p = client.resources(PoolPolicy.class).inNamespace(ns).withName("bench").get();
            if (p != null && p.getStatus() != null && p.getStatus().getTargets() != null
                    && p.getMetadata().getGeneration().equals(p.getStatus().getObservedGeneration())
                    && p.getStatus().getTargets().size() == 2) {
                Map<String, Integer> sizes = new HashMap<>();
                p.getStatus().getTargets().forEach(t -> sizes.put(t.getName(), t.getPoolSize()));
                return sizes;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(ns + ": status did not take the new spec");
            }
            Thread.sleep(50);
        }
    }

    /** The sizes the policy's targets are Applied at (the pods hold them, by the operator's account). */
    private Map<String, Integer> awaitSizes(String ns, int n, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            var p = client.resources(PoolPolicy.class).inNamespace(ns).withName("bench").get();
            var targets = p == null || p.getStatus() == null || p.getStatus().getTargets() == null
                    ? List.<TargetStatus>of()
                    : p.getStatus().getTargets();
            boolean current = p != null && p.getStatus() != null && p.getMetadata().getGeneration() != null
                    && p.getMetadata().getGeneration().equals(p.getStatus().getObservedGeneration());
            if (current && targets.size() == 2 && targets.stream().allMatch(t -> "Applied".equals(t.getState())
                    && t.getAppliedPoolSize() != null && t.getAppliedPoolSize().equals(t.getPoolSize()))) {
                Map<String, Integer> sizes = new HashMap<>();
                targets.forEach(t -> sizes.put(t.getName(), t.getAppliedPoolSize()));
                return sizes;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(ns + ": policy not applied: " + (p == null ? null : p.getStatus()));
            }
            Thread.sleep(200);
        }
    }

    private boolean oldGone(String ns) {
        return client.pods().inNamespace(ns).list().getItems().stream()
                .noneMatch(p -> p.getMetadata().getDeletionTimestamp() != null);
    }

    private Set<String> uids(String ns, String app) {
        return ready(ns, app).stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
    }

    private List<Pod> ready(String ns, String app) {
        return client.pods().inNamespace(ns).withLabel("app", app).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null
                        && p.getStatus().getPodIP() != null && p.getStatus().getConditions().stream()
                                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
                .toList();
    }

    /** HikariCP's own maximumPoolSize in the pod; -1 when it does not answer. */
    private int size(Pod p) {
        try {
            var r = http.send(HttpRequest.newBuilder(URI.create("http://" + p.getStatus().getPodIP() + ":8080/pool"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            var m = MAX.matcher(r.body());
            return m.find() ? Integer.parseInt(m.group(1)) : -1;
        } catch (Exception e) {
            return -1;
        }
    }

    private static Deployment app(String ns, String name, int replicas) {
        return new DeploymentBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
                .withReplicas(replicas).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewStrategy().withNewRollingUpdate().withMaxSurge(new IntOrString("25%"))
                .withMaxUnavailable(new IntOrString(0)).endRollingUpdate().endStrategy()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata().withNewSpec()
                .addToNodeSelector("poolbudget.io/real-node", "true")
                .addNewToleration().withKey("poolbudget.io/real-node").withOperator("Exists").withEffect("NoSchedule")
                .endToleration().withTerminationGracePeriodSeconds(30L)
                .addNewContainer().withName("app").withImage("poolbudget/hikari-app:dev").withImagePullPolicy("Never")
                .addNewEnv().withName("APP_NAME").withValue(ns + "." + name).endEnv()
                .addNewPort().withContainerPort(8080).endPort()
                .withNewReadinessProbe().withNewHttpGet().withPath("/actuator/health/readiness")
                .withPort(new IntOrString(8080)).endHttpGet().withPeriodSeconds(1).endReadinessProbe()
                .withNewResources().addToRequests("cpu", new Quantity("10m"))
                .addToLimits("memory", new Quantity("256Mi")).endResources()
                .endContainer().endSpec().endTemplate().endSpec().build();
    }
}
