package io.poolbudget.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.TargetStatus;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The public applications of third_party/ on the real node, built unmodified from their sources: Spring's petclinic
 * (Spring Boot, HikariCP) and Quarkus' hibernate-orm-panache quickstart ("fruits", Agroal). Their Deployments, configured
 * by the apps' documented variables only, the wait for a live-resizing policy to settle on them, what their pods'
 * agents report, and their pods' identities and restarts, for the tests of the end-to-end tier that run them.
 */
final class PublicApps {
    static final String DB = "jdbc:postgresql://10.88.0.1:5434/app?ApplicationName=";
    /** What each app logs when its own pool gave up on a caller: HikariCP's and Agroal's words. */
    private static final Pattern POOL_TIME_OUT = Pattern.compile(
            "Connection is not available, request timed out|Acquisition timeout while waiting for new connection");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final OperatorTestBase test;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    PublicApps(OperatorTestBase test) {
        this.test = test;
    }

    /** One of the apps: its namespace, its Deployment's name, a page that reads the database, the policy sizing it. */
    record App(String ns, String name, String path, String policy) {
        static App petclinic(String ns, String policy) {
            return new App(ns, "petclinic", "/owners?lastName=", policy);
        }

        static App fruits(String ns, String policy) {
            return new App(ns, "fruits", "/entity/fruits", policy);
        }

        String appName() {
            return RealApps.appName(ns, name);
        }

        boolean spring() {
            return name.equals("petclinic");
        }
    }

    /** What a pod's agent says (GET :9477): the size it read, whether its pools hold it, its demand, each pool's maximum. */
    record Agent(Integer published, boolean confirmed, Integer demand, List<Integer> maxima) {}

    /**
     * The app as its README runs it against PostgreSQL, configured by its documented variables only (and {@code more}),
     * one replica: each app creates its tables at its first start, which two pods at once would race.
     */
    static Deployment deployment(App app, List<EnvVar> more) {
        List<EnvVar> env = new ArrayList<>(app.spring()
                ? List.of(new EnvVar("SPRING_PROFILES_ACTIVE", "postgres", null),
                        new EnvVar("POSTGRES_URL", DB + app.appName(), null),
                        new EnvVar("POSTGRES_USER", "app", null), new EnvVar("POSTGRES_PASS", "app", null))
                : List.of(new EnvVar("QUARKUS_DATASOURCE_JDBC_URL", DB + app.appName(), null),
                        new EnvVar("QUARKUS_DATASOURCE_USERNAME", "app", null),
                        new EnvVar("QUARKUS_DATASOURCE_PASSWORD", "app", null),
                        // its prod profile drops and creates its tables at every start; pods share them here
                        new EnvVar("_PROD_QUARKUS_HIBERNATE_ORM_SCHEMA_MANAGEMENT_STRATEGY", "update", null)));
        env.addAll(more);
        return new DeploymentBuilder().withNewMetadata().withName(app.name()).endMetadata().withNewSpec()
                .withReplicas(1).withNewSelector().addToMatchLabels("app", app.name()).endSelector()
                // Recreate: no surge, no old pod beside a new one, so the budget is the pods' pools exactly (peak pods
                // = replicas), and a raise before the shrink it waits for would show at the database
                .withNewStrategy().withType("Recreate").endStrategy()
                .withNewTemplate().withNewMetadata().addToLabels("app", app.name()).endMetadata().withNewSpec()
                .addToNodeSelector("poolbudget.io/real-node", "true")
                .addNewToleration().withKey("poolbudget.io/real-node").withOperator("Exists").withEffect("NoSchedule")
                .endToleration().withTerminationGracePeriodSeconds(10L)
                .addNewContainer().withName("app").withImage("poolbudget/" + app.name() + ":dev")
                .withImagePullPolicy("Never").withEnv(env).addNewPort().withContainerPort(8080).endPort()
                .withNewReadinessProbe().withNewHttpGet().withPath(app.spring() ? "/actuator/health" : "/")
                .withPort(new IntOrString(8080)).endHttpGet().withPeriodSeconds(1).endReadinessProbe()
                .withNewResources().addToRequests("cpu", new Quantity("50m"))
                .addToLimits("memory", new Quantity(app.spring() ? "512Mi" : "256Mi")).endResources()
                .endContainer().endSpec().endTemplate().endSpec().build();
    }

    /** The app's target in its policy's status, or null. */
    TargetStatus status(App app) {
        var p = test.client.resources(PoolPolicy.class).inNamespace(app.ns()).withName(app.policy()).get();
        return p == null || p.getStatus() == null ? null : OperatorTestBase.target(p, app.name());
    }

    /**
     * Every app's target Applied live at sizes that satisfy {@code sizes}, rolled out to {@code replicas} pods, and
     * every pod's agent confirmed the size; the sizes (appliedPoolSize) by app.
     */
    Map<App, Integer> awaitSettled(List<App> apps, int replicas, int seconds, Predicate<Map<App, Integer>> sizes) {
        Map<App, Integer> settled = new HashMap<>();
        Map<App, TargetStatus> last = new HashMap<>();
        try {
            Awaitility.await("sizes applied and confirmed live").atMost(seconds, TimeUnit.SECONDS)
                    .pollInterval(1, TimeUnit.SECONDS).until(() -> {
                        settled.clear();
                        for (App app : apps) {
                            var t = status(app);
                            last.put(app, t);
                            if (t == null || !"Applied".equals(t.getState()) || !"Live".equals(t.getResize())
                                    || t.getAppliedPoolSize() == null
                                    || !t.getAppliedPoolSize().equals(t.getPoolSize()) || t.getPodsConfirmed() == null
                                    || t.getPodsConfirmed() != replicas || pods(app).size() != replicas) {
                                return false;
                            }
                            settled.put(app, t.getAppliedPoolSize());
                        }
                        return sizes.test(settled);
                    });
        } catch (ConditionTimeoutException e) {
            var seen = new StringBuilder();
            last.forEach((app, t) -> seen.append("\n").append(app.name()).append(": ")
                    .append(t == null ? "(no status)" : Serialization.asYaml(t)));
            throw new AssertionError("not settled in " + seconds + " s; the targets' status last seen:" + seen
                    + PodStates.of(test.client, apps.get(0).ns()) + test.operatorLog(), e);
        }
        for (App app : apps) {
            test.in(app.ns(), () -> test.awaitRolledOut(app.name(), seconds));
        }
        return Map.copyOf(settled);
    }

    /** The app's pods that are not terminating and have an address. */
    List<Pod> pods(App app) {
        return test.client.pods().inNamespace(app.ns()).withLabel("app", app.name()).list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus().getPodIP() != null)
                .toList();
    }

    List<String> addresses(App app) {
        return pods(app).stream().map(p -> p.getStatus().getPodIP()).toList();
    }

    Map<App, Set<String>> uids(List<App> apps) {
        Map<App, Set<String>> uids = new HashMap<>();
        for (App app : apps) {
            uids.put(app, pods(app).stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet()));
        }
        return uids;
    }

    int restarts(App app) {
        return pods(app).stream().flatMap(p -> p.getStatus().getContainerStatuses().stream())
                .mapToInt(s -> s.getRestartCount() == null ? 0 : s.getRestartCount()).sum();
    }

    /** How many times the app's pods logged that their own pool timed a caller out (HikariCP, Agroal). */
    int poolTimeOuts(App app) {
        int n = 0;
        for (Pod p : pods(app)) {
            String log = test.client.pods().inNamespace(app.ns()).withName(p.getMetadata().getName()).getLog();
            n += (int) POOL_TIME_OUT.matcher(log == null ? "" : log).results().count();
        }
        return n;
    }

    /** The agent of the pod, read as the operator reads it. */
    Agent agent(Pod pod) {
        try {
            var r = http.send(HttpRequest.newBuilder(URI.create("http://" + pod.getStatus().getPodIP() + ":9477/"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode json = JSON.readTree(r.body());
            List<Integer> maxima = new ArrayList<>();
            json.path("pools").forEach(p -> maxima.add(p.path("maximum").asInt()));
            return new Agent(json.path("published").isInt() ? json.get("published").asInt() : null,
                    json.path("confirmed").asBoolean(), json.path("demand").isInt() ? json.get("demand").asInt() : null,
                    maxima);
        } catch (IOException e) {
            throw new AssertionError("the agent of " + pod.getMetadata().getName() + " did not answer: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Each pod's agent, by pod name: what the apps' own pools hold. */
    Map<String, Agent> agents(App app) {
        Map<String, Agent> agents = new TreeMap<>();
        pods(app).forEach(p -> agents.put(p.getMetadata().getName(), agent(p)));
        return agents;
    }

    static Map<String, Integer> named(Map<App, Integer> sizes) {
        return new TreeMap<>(sizes.entrySet().stream().collect(Collectors.toMap(e -> e.getKey().name(),
                Map.Entry::getValue)));
    }
}
