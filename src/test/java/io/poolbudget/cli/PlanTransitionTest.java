package io.poolbudget.cli;

import static io.poolbudget.cli.PlanCommandTest.plan;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poolbudget.decide.RollingShrinkTest;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Issue 53, item 4: given workloads whose templates carry the size their pods run with, plan says what lowering it by a
 * rollout may hold, in the operator's words (one source: {@link io.poolbudget.sizing.TransitionPeaks}).
 */
class PlanTransitionTest {
    private static final String KC = """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: kc}
            spec:
              replicas: 2
              template:
                spec:
                  containers:
                  - name: app
                    env: [{name: HIKARI_MAXIMUM_POOL_SIZE, value: "%s"}]
            ---
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: db}
            spec:
              database: {budget: %d}
              injection: {preset: hikari-env}
              targets: [{name: kc}]
            """;

    @Test
    void aCutBelowWhatThePodsHoldSaysWhatItsRolloutMayHold() throws IOException {
        var run = plan(KC.formatted("2", 4));
        assertThat(run.exit()).as(run.err()).isEqualTo(PlanCommand.FITS);
        assertThat(run.out()).contains("  transition, from the sizes the templates carry: " + RollingShrinkTest.NOTE
                + "\n");
        JsonNode t = new ObjectMapper().readTree(plan(KC.formatted("2", 4), "-o", "json").out()).path("policies")
                .get(0).path("targets").get(0).path("transition");
        assertThat(t.path("peak").asLong()).isEqualTo(6);
        assertThat(t.path("peakWithoutOverlap").asLong()).isEqualTo(5);
        assertThat(t.path("message").asText()).isEqualTo(RollingShrinkTest.NOTE);
    }

    @Test
    void nothingIsSaidWhereItFitsOrNoSizeIsCarried() throws IOException {
        assertThat(plan(KC.formatted("2", 6)).out()).doesNotContain("transition");
        assertThat(plan(KC.formatted("1", 4)).out()).doesNotContain("transition");
        var unsized = plan(KC.replace("env: [{name: HIKARI_MAXIMUM_POOL_SIZE, value: \"%s\"}]", "image: app")
                .formatted(4));
        assertThat(unsized.out()).as(unsized.err()).doesNotContain("transition");
        var json = new ObjectMapper().readTree(plan(KC.formatted("2", 6), "-o", "json").out());
        assertThat(json.path("policies").get(0).path("targets").get(0).has("transition")).isFalse();
    }
}
