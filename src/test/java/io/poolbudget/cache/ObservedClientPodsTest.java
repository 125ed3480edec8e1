package io.poolbudget.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.poolbudget.api.v1alpha1.ObservedStatus.ObservedClient;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.decide.ClusterView;
import io.poolbudget.planning.Owner;
import io.poolbudget.decide.Passes;
import io.poolbudget.decide.PolicyPassTest;
import io.poolbudget.decide.SettledWorkloads;
import io.poolbudget.decide.SizedWorkloads;
import io.poolbudget.status.Conditions;
import io.poolbudget.status.Observation;
import io.poolbudget.status.StatusAggregator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Issue 53, item 12: a target's pods the operator has not sized yet (started before it first sized the workload: no
 * marker, so not cached) are the target's clients at the database, not clients "not from a target". They are
 * attributed by the pod (the workload's selector owns it), not by the size written into it; a pod of a workload outside
 * the policy is still not from a target.
 */
class ObservedClientPodsTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final Owner OWNER = new Owner("db");

    @Test
    void aTargetsPodNotYetSizedCountsForTheTargetAndAnotherWorkloadsPodDoesNot() {
        var policy = PolicyPassTest.policy("db", """
                database: {budget: 12, observe: {secretName: pg-monitor}}
                injection: {preset: hikari-env}
                targets: [{name: web}]
                """);
        // mid-adoption: the operator sized the template, one new pod runs at 4, one old pod not sized yet
        var view = new ClusterView(List.of(SizedWorkloads.deployment(OWNER, "web", 2, 4, 2, 1, 2)), List.of(),
                List.of(), List.of(sized("web-new-1", "10.0.0.5")),
                List.of(), new SettledWorkloads(), NOW);
        var result = Passes.run(policy, view, List.of(policy), new PolicyPassTest.RecordingWriter(), NOW,
                Duration.ZERO);
        var byClient = new TreeMap<>(Map.of("10.0.0.5", 4L, "10.0.0.6", 10L, "10.0.0.9", 3L, "10.0.0.1", 1L));
        var observation = new Observation(100, 3, byClient, null).withClientPods(Map.of(
                "10.0.0.6", Map.of("app", "web", "pod-template-hash", "old"), // web's own pod, not sized yet
                "10.0.0.9", Map.of("app", "other"))); // a pod of a workload the policy does not target

        PoolPolicyStatus status = new StatusAggregator(Clock.fixed(NOW, ZoneOffset.UTC)).build(policy, result, null,
                null, new PolicyReads(view, List.of(), null, observation).observed(policy, result)).status();

        assertThat(status.getTargets().get(0).getObservedConnections()).isEqualTo(4 + 10);
        assertThat(status.getObserved().getClients()).containsExactly(new ObservedClient("Deployment/web", 14),
                new ObservedClient("10.0.0.9", 3), new ObservedClient("10.0.0.1", 1));
        var over = status.getConditions().stream().filter(c -> c.getType().equals(Conditions.OBSERVED_OVER_BUDGET))
                .findFirst().orElseThrow();
        assertThat(over.getMessage()).endsWith("not from a target: 10.0.0.1 1, 10.0.0.9 3")
                .doesNotContain("10.0.0.6").doesNotContain("does the app read");
    }

    private static Pod sized(String name, String ip) {
        Pod p = SizedWorkloads.pod(OWNER, "web", name, 4, "new");
        p.setStatus(new PodStatusBuilder().withPodIP(ip).build());
        return p;
    }
}
