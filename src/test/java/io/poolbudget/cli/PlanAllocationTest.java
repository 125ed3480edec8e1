package io.poolbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** spec.allocation (issue 55): the example plans, and plan refuses what the CRD refuses, naming the field. */
class PlanAllocationTest {

    @Test
    void theExamplePlans() {
        var run = PlanCommandTest.plan("", "-f", "examples/allocation/demand.yaml");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("PoolPolicy shop-db: fits");
    }

    @Test
    void numbersWithModeWeightsAreRefused() {
        for (String field : new String[]{"lendablePercent: 20", "borrowingLimitPercent: 50", "periodSeconds: 30"}) {
            var run = plan("{preset: hikari-env}", "{" + field + "}");
            assertThat(run.exit()).as(run.out()).isEqualTo(PlanCommand.BAD_INPUT);
            assertThat(run.err()).contains("spec.allocation." + field.substring(0, field.indexOf(':'))
                    + " does nothing with mode Weights (the default): remove it, or set allocation.mode: Demand");
        }
    }

    @Test
    void demandWithoutLiveResizeIsRefused() {
        var run = plan("{preset: hikari-env}", "{mode: Demand}");
        assertThat(run.exit()).as(run.out()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(run.err()).contains("spec.allocation.mode Demand moves connections only by live resize: set "
                + "spec.injection.resize: Live");
    }

    @Test
    void recommendNeedsNoLiveResizeAndDemandPlansWithIt() {
        assertThat(plan("{preset: hikari-env}", "{mode: Recommend, lendablePercent: 30}").exit()).isZero();
        assertThat(plan("{preset: hikari-env, resize: Live}", "{mode: Demand, periodSeconds: 5}").exit()).isZero();
        assertThat(plan("{preset: hikari-env}", "{mode: Weights}").exit()).isZero();
    }

    @Test
    void numbersOutOfBoundsAreRefused() {
        var run = plan("{preset: hikari-env}", "{mode: Recommend, periodSeconds: 4}");
        assertThat(run.exit()).as(run.out()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(run.err()).contains("spec.allocation.periodSeconds must be at least 5, got 4");
        run = plan("{preset: hikari-env}", "{mode: Recommend, lendablePercent: 101}");
        assertThat(run.err()).contains("spec.allocation.lendablePercent must be at most 100, got 101");
    }

    private static PlanCommandTest.Run plan(String injection, String allocation) {
        return PlanCommandTest.plan("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db}
                spec: {database: {budget: 20}, injection: %s, allocation: %s, targets: [{name: api}]}
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: api}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: api}}
                  template: {metadata: {labels: {app: api}}, spec: {containers: [{name: app, image: api}]}}
                """.formatted(injection, allocation), "-f", "-");
    }
}
