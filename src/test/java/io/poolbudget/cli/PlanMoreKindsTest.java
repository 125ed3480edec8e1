package io.poolbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** plan with Argo Rollouts and CronJobs (issue 46): the example, and what it refuses, naming the field. */
class PlanMoreKindsTest {

    @Test
    void theExamplePlansEachKindFromItsStrategy() {
        var run = PlanCommandTest.plan("", "-f", "examples/more-kinds/policy.yaml");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("PoolPolicy shop-db: fits")
                .contains("peak pods 12 = 4 (current replicas 4) + 4 surge + 4 terminating")
                .contains("peak pods 9 = 3 (current replicas 3) + 3 surge + 3 terminating")
                .contains("peak pods 2 = 2 (pods its Jobs run at once: 2) + 0 surge + 0 terminating")
                .contains("peak pods 6 = 3 (pods its Jobs run at once: 3) + 0 surge + 3 terminating")
                .contains("up to 3 Jobs at once (schedule '*/5 * * * *' starts that many within "
                        + "activeDeadlineSeconds 600 + a 30 s grace period)");
    }

    private static PlanCommandTest.Run plan(String target, String workload) {
        return PlanCommandTest.plan("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db}
                spec: {database: {budget: 20}, injection: {preset: hikari-env}, targets: [%s]}
                ---
                %s
                """.formatted(target, workload), "-f", "-");
    }

    private static final String UNBOUNDED = """
            apiVersion: batch/v1
            kind: CronJob
            metadata: {name: sync}
            spec:
              schedule: "*/5 * * * *"
              jobTemplate: {spec: {template: {spec: {containers: [{name: sync, image: sync}]}}}}
            """;

    @Test
    void overlappingJobsWithoutADeadlineAreRefusedUnlessThePodsAreGiven() {
        var run = plan("{kind: CronJob, name: sync}", UNBOUNDED);
        assertThat(run.exit()).isNotZero();
        assertThat(run.err()).contains("spec.targets[0].name cannot be sized: CronJob/sync lets its Jobs overlap "
                + "without bound").contains("activeDeadlineSeconds").doesNotContain("Exception");
        var fixed = plan("{kind: CronJob, name: sync, basis: Fixed, fixedReplicas: 4}", UNBOUNDED);
        assertThat(fixed.exit()).as(fixed.err()).isZero();
        assertThat(fixed.out()).contains("CronJob/sync").contains("peak pods 8 = 4 (fixedReplicas 4)");
    }

    @Test
    void aRolloutThatRunsAnotherWorkloadsTemplateIsRefused() {
        var run = plan("{kind: Rollout, name: web}", """
                apiVersion: argoproj.io/v1alpha1
                kind: Rollout
                metadata: {name: web}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: web}}
                  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: web}
                """);
        assertThat(run.exit()).isNotZero();
        assertThat(run.err()).contains("spec.targets[0].name cannot be sized: Rollout/web runs the pod template of "
                + "the workload its spec.workloadRef names");
    }

    @Test
    void anHpaScalesARollout() {
        var run = plan("{kind: Rollout, name: web}", """
                apiVersion: argoproj.io/v1alpha1
                kind: Rollout
                metadata: {name: web}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: web}}
                  template: {spec: {containers: [{name: web, image: web}]}}
                  strategy: {canary: {maxSurge: 1, maxUnavailable: 0}}
                ---
                apiVersion: autoscaling/v2
                kind: HorizontalPodAutoscaler
                metadata: {name: web}
                spec:
                  scaleTargetRef: {apiVersion: argoproj.io/v1alpha1, kind: Rollout, name: web}
                  maxReplicas: 4
                """);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("peak pods 6 = 4 (HorizontalPodAutoscaler/web maxReplicas 4) + 1 surge + 1 terminating");
    }
}
