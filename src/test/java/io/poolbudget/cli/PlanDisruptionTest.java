package io.poolbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Issue 54, item 1: plan reads PodDisruptionBudgets from the manifests, as the operator reads them from the cluster. */
class PlanDisruptionTest {
    private static final String POLICY = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: db}
            spec:
              database: {budget: 100}
              injection: {preset: hikari-env}
              targets: [%s]
            ---
            """;
    private static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: a}
            spec:
              replicas: 6
              selector: {matchLabels: {app: a}}
              strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
              template:
                metadata: {labels: {app: a}}
                spec: {containers: [{name: app, image: app}]}
            """;
    private static final String HALF = """
            ---
            apiVersion: policy/v1
            kind: PodDisruptionBudget
            metadata: {name: a}
            spec: {maxUnavailable: 50%, selector: {matchLabels: {app: a}}}
            """;

    @Test
    void aBudgetOfHalfOnSixReplicasPlansForThreeEvictedAtOnce() {
        Run run = plan(POLICY.formatted("{name: a}") + DEPLOYMENT + HALF, "-f", "-");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("peak pods 10 = 6 (current replicas 6) + 1 surge + 3 terminating (a drain may "
                + "evict 3 at once: PodDisruptionBudget/a maxUnavailable 50%; they terminate beside their replacements)")
                .doesNotContain("no PodDisruptionBudget selects");
    }

    @Test
    void aBudgetSelectingOtherPodsIsNotCounted() {
        Run run = plan(POLICY.formatted("{name: a}") + DEPLOYMENT + HALF.replace("{app: a}", "{app: b}"), "-f", "-");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("peak pods 8 = 6 (current replicas 6) + 1 surge + 1 terminating (one rollout")
                .contains("note: Deployment/a: no PodDisruptionBudget selects its pods, so a drain may evict every "
                        + "pod of a node at once");
    }

    @Test
    void disruptionPodsPlansWithoutABudgetAndTheNoteGoes() {
        Run run = plan(POLICY.formatted("{name: a, disruptionPods: 2}") + DEPLOYMENT, "-f", "-");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("peak pods 9 = 6 (current replicas 6) + 1 surge + 2 terminating (a drain may "
                + "evict 2 at once: spec.targets[0].disruptionPods 2;").doesNotContain("no PodDisruptionBudget");
    }

    @Test
    void aNegativeDisruptionPodsIsRefusedNamingTheField() {
        Run run = plan(POLICY.formatted("{name: a, disruptionPods: -1}") + DEPLOYMENT, "-f", "-");
        assertThat(run.exit()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(run.err()).contains("spec.targets[0].disruptionPods");
    }

    private record Run(int exit, String out, String err) {}

    private static Run plan(String stdin, String... args) {
        var r = PlanCommandTest.plan(stdin, args);
        return new Run(r.exit(), r.out(), r.err());
    }
}
