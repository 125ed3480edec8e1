package io.poolbudget.decide;

import static io.poolbudget.decide.PolicyPassTest.policy;
import static io.poolbudget.decide.PolicyPassTest.web;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.api.v1alpha1.TargetStatus;
import io.poolbudget.status.StatusAggregator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 54, item 1: the operator plans for what the namespace's PodDisruptionBudgets let a drain evict at once. */
class DrainPlanTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");

    private static Deployment six() {
        var d = web(4);
        d.getSpec().setReplicas(6);
        d.getSpec().getTemplate().getMetadata().setLabels(Map.of("app", "web"));
        d.getSpec().setStrategy(new io.fabric8.kubernetes.api.model.apps.DeploymentStrategyBuilder()
                .withType("RollingUpdate").withNewRollingUpdate().withMaxSurge(new IntOrString(1))
                .withMaxUnavailable(new IntOrString(0)).endRollingUpdate().build());
        return d;
    }

    private static PodDisruptionBudget pdb(String name, String namespace, Map<String, String> selects, Object max) {
        return new PodDisruptionBudgetBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .withNewSpec().withMaxUnavailable(max instanceof Integer i ? new IntOrString(i)
                        : new IntOrString((String) max))
                .withNewSelector().withMatchLabels(selects).endSelector()
                .endSpec().build();
    }

    private static TargetStatus row(PodDisruptionBudget... budgets) {
        var p = policy("db", PolicyPassTest.SPEC);
        var view = new ClusterView(List.of(six()), List.of(), List.of(), List.of(), List.of())
                .withDisruptionBudgets(List.of(budgets));
        var result = Passes.run(p, view, List.of(p), new PolicyPassTest.RecordingWriter(), NOW, Duration.ofMinutes(3));
        PoolPolicyStatus status = new StatusAggregator(Clock.fixed(NOW, ZoneOffset.UTC)).status(p, result);
        return status.getTargets().get(0);
    }

    @Test
    void aBudgetSelectingTheTemplatesPodsRaisesPeakPods() {
        var t = row(pdb("web", "ns", Map.of("app", "web"), "50%"));
        assertThat(t.getPeakPods()).isEqualTo(10);
        assertThat(t.getExplanation()).contains("+ 3 terminating (a drain may evict 3 at once: PodDisruptionBudget/web "
                + "maxUnavailable 50%").doesNotContain("no PodDisruptionBudget");
    }

    @Test
    void theMostRestrictiveBudgetBoundsAndOthersAreNotCounted() {
        var t = row(pdb("half", "ns", Map.of("app", "web"), "50%"), pdb("one", "ns", Map.of("app", "web"), 2),
                pdb("elsewhere", "other", Map.of("app", "web"), 6), pdb("others", "ns", Map.of("app", "x"), 6));
        assertThat(t.getPeakPods()).isEqualTo(9);
        assertThat(t.getExplanation())
                .contains("a drain may evict 2 at once: PodDisruptionBudget/one maxUnavailable 2");
    }

    @Test
    void withoutABudgetStatusAdvisesButRaisesNoAlarm() {
        var t = row();
        assertThat(t.getPeakPods()).isEqualTo(8);
        assertThat(t.getExplanation()).contains("Note: Deployment/web: no PodDisruptionBudget selects its pods, so a "
                + "drain may evict every pod of a node at once");
        assertThat(String.valueOf(t.getMessage())).as("advice, not an alarm").doesNotContain("PodDisruptionBudget");
    }
}
