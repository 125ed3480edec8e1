package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import static io.poolbudget.decide.PolicyPassTest.policy;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvFromSourceBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.poolbudget.planning.Workload;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 53, found 9: a pod counts at its own template's pools per pod, as it does at its own size. When
 * WEB_CONCURRENCY went 1 → 2 in Redmine's template, the old single-process pods were counted at 2 pools each
 * ("the pods hold 18 of 10 connections now") while PostgreSQL never saw more than 8.
 */
class PodsOwnPoolsTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final String CM = "poolbudget-db-deployment-web";
    private static final String RAILS = "database: {cores: 8, budget: 10}\ninjection: {preset: rails}\n"
            + "targets: [{name: web}]\n";

    /** A container of Redmine's in mode EnvFrom, forking {@code workers} Puma workers. */
    private static PodSpec spec(String workers) {
        return new PodSpecBuilder().addNewContainer().withName("app")
                .withEnvFrom(new EnvFromSourceBuilder().withNewConfigMapRef().withName(CM).endConfigMapRef().build())
                .withEnv(new EnvVar("DATABASE_URL", "postgres://db/app?pool=$(POOLBUDGET_MAX_POOL_SIZE)", null),
                        new EnvVar(Workload.WORKERS_ENV, workers, null))
                .endContainer().build();
    }

    /** The operator's marks, size 1 (its ConfigMap's hash as well). */
    private static Map<String, String> sized() {
        return Map.of("pool-size.poolbudget.io/db", "1", "config-hash.poolbudget.io/db",
                Injection.dataHash(PolicyPassTest.policy("db", RAILS).getSpec().getInjection(), 1));
    }

    /** web, 2 replicas, its template now at {@code workers} workers, sized at 1 by the operator. */
    private static Deployment web(String workers) {
        var d = PolicyPassTest.web(null);
        d.getSpec().getTemplate().setSpec(spec(workers));
        d.getSpec().getTemplate().getMetadata().setAnnotations(sized());
        d.getSpec().getTemplate().getMetadata().setLabels(Map.of("app", "web", Owner.SIZED_LABEL, "true"));
        return d;
    }

    private static Pod pod(String name, String hash, String workers) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns")
                .withCreationTimestamp("2026-01-01T09:00:00Z")
                .withLabels(Map.of("app", "web", Owner.SIZED_LABEL, "true", "pod-template-hash", hash))
                .withAnnotations(sized()).endMetadata().withSpec(spec(workers)).build();
    }

    private static Long live(Deployment d, Pod... pods) {
        var p = policy("db", RAILS);
        var view = new ClusterView(List.of(d), List.of(), List.of(), List.of(pods), List.of(), new SettledWorkloads(),
                NOW);
        return Passes.run(p, view, List.of(p), new PolicyPassTest.RecordingWriter(), NOW, Duration.ofMinutes(3))
                .targets().get(0).live();
    }

    @Test
    void oldPodsCountAtTheirOwnWorkersNotAtTheNewTemplates() {
        // the template now forks 2 workers; its two running pods still run one process each, pool 1
        assertThat(live(web("2"), pod("web-a1", "old", "1"), pod("web-a2", "old", "1")))
                .as("2 pods × pool 1 × 1 worker, not × the template's 2").isEqualTo(2);
        // the rollout's first new pod forks 2 workers: it holds 2
        assertThat(live(web("2"), pod("web-a1", "old", "1"), pod("web-a2", "old", "1"), pod("web-b1", "new", "2")))
                .isEqualTo(1 + 1 + 2);
        // and the other way: old pods of 3 workers count at 3 under a template of 1
        assertThat(live(web("1"), pod("web-a1", "old", "3"), pod("web-b1", "new", "1"))).isEqualTo(3 + 1);
    }

    @Test
    void aTargetsOwnPoolsPerPodCountsForEveryPod() {
        var p = policy("db", RAILS.replace("{name: web}", "{name: web, poolsPerPod: 2}"));
        var view = new ClusterView(List.of(web("1")), List.of(), List.of(),
                List.of(pod("web-a1", "old", "1"), pod("web-a2", "old", "3")), List.of(), new SettledWorkloads(), NOW);
        var result = Passes.run(p, view, List.of(p), new PolicyPassTest.RecordingWriter(), NOW, Duration.ofMinutes(3));
        assertThat(result.targets().get(0).live()).as("the target says 2 pools per pod").isEqualTo(4);
    }
}
