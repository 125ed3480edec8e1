package io.poolbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.poolbudget.cli.PlanCommandTest.Run;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** plan runs in CI on manifests from pull requests: an alias bomb must be refused, not expanded. */
class PlanAliasBombTest {
    /** "Billion laughs": 9 levels of 9 aliases, 387 million strings once expanded (7 GB before this guard). */
    static String bomb() {
        StringBuilder y = new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\ndata:\n");
        y.append("  a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (int i = 1; i <= 8; i++) {
            y.append("  a").append(i).append(": &a").append(i).append(" [");
            for (int j = 0; j < 9; j++) {
                y.append(j == 0 ? "" : ",").append("*a").append(i - 1);
            }
            y.append("]\n");
        }
        return y.toString();
    }

    @Test
    void anAliasBombIsRefusedAsBadInputWithoutBeingExpanded() {
        // a guard against a hang, not a timing assertion: the refusal takes milliseconds
        Run run = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> PlanCommandTest.plan(bomb(), "-f", "-"));
        assertThat(run.exit()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(run.err()).startsWith("plan: ").contains("aliases expand to more than")
                .contains("as an alias bomb does").doesNotContain("Exception");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void ordinaryAnchorsAndAliasesStillWork() {
        Run run = PlanCommandTest.plan("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: api}
                spec:
                  replicas: 2
                  template:
                    spec:
                      containers:
                      - name: app
                        env: &env [{name: A, value: "1"}, {name: B, value: "2"}]
                      - name: sidecar
                        env: *env
                ---
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db}
                spec:
                  database: &db {cores: 4}
                  injection: {preset: hikari-env}
                  targets: [{name: api}]
                """, "-f", "-");
        assertThat(run.exit()).as(run.err()).isEqualTo(PlanCommand.FITS);
        assertThat(run.out()).contains("PoolPolicy db: fits");
    }
}
