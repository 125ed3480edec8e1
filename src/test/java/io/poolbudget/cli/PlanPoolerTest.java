package io.poolbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.cli.PlanCommandTest.Run;
import org.junit.jupiter.api.Test;

/**
 * plan with a pooler tier (issue 45): the pooler's server side against the database, the apps behind it against the
 * client connections it accepts, and every refusal naming its field, as the operator says it (one source, PoolerTier).
 */
class PlanPoolerTest {
    private static final String SERVER = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: database}
            spec: {database: {cores: 4}, injection: {preset: pgbouncer}, targets: [{name: pgbouncer}]}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: app}
            spec: {replicas: 4, strategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}}
            """;

    private static Run plan(String database, String poolerEnv, int poolerReplicas) {
        return PlanCommandTest.plan(SERVER + """
                ---
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: clients}
                spec:
                  database: %s
                  injection: {preset: hikari-env}
                  targets: [{name: app, terminatingPods: 0}]
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: pgbouncer}
                spec:
                  replicas: %d
                  strategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
                  template: {spec: {containers: [{name: pgbouncer, image: pgbouncer, env: [%s]}]}}
                """.formatted(database, poolerReplicas, poolerEnv), "-f", "-");
    }

    @Test
    void theExampleShowsBothTiers() {
        var run = PlanCommandTest.plan("", "-f", "examples/pooler/pgbouncer.yaml");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("PoolPolicy database: fits, 16 of 16 connections allocated")
                .contains("tier: server side of a pooler, its pods' server connections against the database; its "
                        + "clients: PoolPolicy pgbouncer-clients")
                .contains("budget 400 = max_client_conn 200 (from Deployment/pgbouncer's pod template) × 2 pods of "
                        + "Deployment/pgbouncer")
                .contains("tier: clients of pooler Deployment/pgbouncer, counted against the connections it accepts");
    }

    @Test
    void theClientsShareWhatThePoolerAcceptsAndTheServerSideWhatTheDatabaseServes() {
        // clients: 2 pooler pods x 30 = 60 for 5 peak pods (4 + 1 surge) -> 12 each; server: budget 8 for
        // the pooler's 2 + 1 surge + 1 terminating = 4 pods -> 2 each
        var run = plan("{pooler: {name: pgbouncer}}", "{name: MAX_CLIENT_CONN, value: '30'}", 2);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("PoolPolicy clients: fits, 60 of 60 connections allocated")
                .containsPattern("Deployment/app +4 \\(Current\\) +5 +1 +1 +12 +60")
                .containsPattern("Deployment/pgbouncer +2 \\(Current\\) +4 +1 +1 +2 +8");
    }

    @Test
    void withoutALimitInItsTemplateThePoolerAcceptsPgBouncersDefaultLessWhatIsReserved() {
        var run = plan("{pooler: {name: pgbouncer}, reservedConnections: 10}", "", 1);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("budget 90 = max_client_conn 100 (PgBouncer's default: Deployment/pgbouncer "
                + "sets no MAX_CLIENT_CONN or PGBOUNCER_MAX_CLIENT_CONN) × 1 pod of Deployment/pgbouncer − 10 reserved");
        var given = plan("{pooler: {name: pgbouncer, maxClientConn: 7}}", "{name: MAX_CLIENT_CONN, value: '30'}", 1);
        assertThat(given.out()).contains("budget 7 = max_client_conn 7 (spec.database.pooler.maxClientConn)");
    }

    @Test
    void podsAPoolerRollingUpdateTakesDownAcceptNobody() {
        var run = PlanCommandTest.plan(SERVER + """
                ---
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: clients}
                spec: {database: {pooler: {name: pgbouncer}}, injection: {preset: hikari-env}, targets: [{name: app}]}
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: pgbouncer}
                spec: {replicas: 4}
                """, "-f", "-"); // Kubernetes' default strategy: maxUnavailable 25% = 1 of 4
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("budget 300 = max_client_conn 100 (PgBouncer's default: Deployment/pgbouncer "
                + "sets no MAX_CLIENT_CONN or PGBOUNCER_MAX_CLIENT_CONN) × 3 pods (4 replicas − 1 maxUnavailable while "
                + "it rolls) of Deployment/pgbouncer");
    }

    @Test
    void aPoolerWithNoPodsAcceptsNoClients() {
        var run = plan("{pooler: {name: pgbouncer}}", "", 0);
        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.out()).contains("PoolPolicy clients: OVERSUBSCRIBED, the minimums alone need 5 connections and "
                + "the budget is 0");
    }

    @Test
    void refusalsNameTheField() {
        var missing = PlanCommandTest.plan(SERVER.replace("name: pgbouncer}]", "name: app}]") + """
                ---
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: clients}
                spec: {database: {pooler: {name: bouncer}}, injection: {preset: hikari-env}, targets: [{name: app}]}
                """, "-f", "-");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("spec.database.pooler.name names Deployment/bouncer, which does not exist "
                + "in this namespace");
        var unknown = plan("{pooler: {name: pgbouncer}}",
                "{name: MAX_CLIENT_CONN, valueFrom: {configMapKeyRef: {name: c, key: k}}}", 1);
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("spec.database.pooler.maxClientConn is required here: "
                + "Deployment/pgbouncer sets MAX_CLIENT_CONN or PGBOUNCER_MAX_CLIENT_CONN to what its spec does not tell");
        var both = plan("{pooler: {name: pgbouncer}, cores: 4}", "", 1);
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("spec.database.pooler sizes the apps against the client connections the "
                + "pooler accepts: remove database.cores");
        var live = PlanCommandTest.plan(SERVER.replace("preset: pgbouncer}", "preset: pgbouncer, resize: Live}"),
                "-f", "-");
        assertThat(live.exit()).isEqualTo(2);
        assertThat(live.err()).contains("spec.injection.resize");
    }
}
