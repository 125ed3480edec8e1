package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The API server rejects what the CRD's schema and CEL rules catch, with a message naming the field. */
@ClusterTest
class RejectedSpecsIT {
    private static final List<String> namespaces = new ArrayList<>();
    private static KubernetesClient client;
    private static String ns;

    @BeforeAll
    static void install() {
        client = TestCluster.of(RejectedSpecsIT.class).client();
        ClusterFixture.installCrds(client);
        ns = ClusterFixture.createNamespace(client, "it-rejected");
        namespaces.add(ns);
    }

    @AfterAll
    static void cleanUp() {
        if (client != null) {
            ClusterFixture.deleteNamespaces(client, namespaces);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            zero cores                 | ok   | {cores: 0}                                 | {preset: hikari-env} | [{name: a}]                            | spec.database.cores: Invalid value: 0: spec.database.cores in body should be greater than or equal to 1
            neither cores nor budget   | ok   | {effectiveSpindles: 2}                     | {preset: hikari-env} | [{name: a}]                            | database.cores is required unless database.budget or database.pooler is given
            pooler and cores           | ok   | {cores: 2, pooler: {name: pgbouncer}}      | {preset: hikari-env} | [{name: a}]                            | database.pooler sizes the apps against the client connections the pooler accepts: remove database.cores
            pooler without a name      | ok   | {pooler: {maxClientConn: 50}}              | {preset: hikari-env} | [{name: a}]                            | spec.database.pooler.name: Required value
            pooler resized live        | ok   | {cores: 2}                                 | {preset: pgbouncer, resize: Live} | [{name: a}]               | injection.resize may be Live only for pools the operator
            negative spindles          | ok   | {cores: 2, effectiveSpindles: -1}          | {preset: hikari-env} | [{name: a}]                            | spec.database.effectiveSpindles
            reserved at maxConnections | ok   | {cores: 2, maxConnections: 10, reservedConnections: 10} | {preset: hikari-env} | [{name: a}]  | database.reservedConnections must be below database.maxConnections
            no database                | ok   |                                            | {preset: hikari-env} | [{name: a}]                            | set exactly one of spec.database (a database of this policy's own) or spec.databaseRef
            no targets                 | ok   | {cores: 2}                                 | {preset: hikari-env} | []                                     | spec.targets: Invalid value: 0: spec.targets in body should have at least 1 items
            name and selector          | ok   | {cores: 2}                                 | {preset: hikari-env} | [{name: a, selector: {}}]              | set exactly one of targets[].name or targets[].selector
            neither name nor selector  | ok   | {cores: 2}                                 | {preset: hikari-env} | [{weight: 2}]                          | set exactly one of targets[].name or targets[].selector
            min above max              | ok   | {cores: 2}                                 | {preset: hikari-env} | [{name: a, minPoolSize: 5, maxPoolSize: 2}] | targets[].minPoolSize must not exceed targets[].maxPoolSize
            zero weight                | ok   | {cores: 2}                                 | {preset: hikari-env} | [{name: a, weight: 0}]                 | spec.targets[0].weight: Invalid value: 0
            unknown kind               | ok   | {cores: 2}                                 | {preset: hikari-env} | [{name: a, kind: DaemonSet}]           | spec.targets[0].kind: Unsupported value: "DaemonSet"
            fixed without replicas     | ok   | {cores: 2}                                 | {preset: hikari-env} | [{name: a, basis: Fixed}]              | targets[].fixedReplicas is required with basis Fixed
            unknown preset             | ok   | {cores: 2}                                 | {preset: spring-boot-c3p0} | [{name: a}]                      | spec.injection.preset: Unsupported value: "spring-boot-c3p0"
            preset and explicit names  | ok   | {cores: 2}                                 | {preset: hikari-env, maxPoolSizeEnv: POOL} | [{name: a}]      | set exactly one of injection.preset or injection.maxPoolSizeEnv
            bad variable name          | ok   | {cores: 2}                                 | {maxPoolSizeEnv: 'pool size'} | [{name: a}]                   | spec.injection.maxPoolSizeEnv
            JVM options variable       | ok   | {cores: 2}                                 | {maxPoolSizeEnv: JAVA_TOOL_OPTIONS} | [{name: a}]           | injection.maxPoolSizeEnv names a variable that changes how a process starts or loads code
            loader variable            | ok   | {cores: 2}                                 | {maxPoolSizeEnv: POOL, minIdleEnv: LD_PRELOAD} | [{name: a}] | injection.minIdleEnv names a variable that changes how a process starts or loads code
            datasource without names   | ok   | {cores: 2}                                 | {preset: hikari-env, datasource: orders} | [{name: a}]   | injection.datasource goes with a preset whose variables name a datasource
            url preset in mode Env     | ok   | {cores: 2}                                 | {preset: pgx, mode: Env} | [{name: a}]                   | injection.mode must be EnvFrom (its default) for a preset that puts the size in your connection string
            live for a reactive client | ok   | {cores: 2}                                 | {preset: quarkus-reactive, resize: Live} | [{name: a}]   | injection.resize may be Live only for pools the operator
            no names outside EnvFrom   | ok   | {cores: 2}                                 | {mode: ConfigMap}    | [{name: a}]                            | set exactly one of injection.preset or injection.maxPoolSizeEnv (or, with mode EnvFrom, neither
            unknown mode               | ok   | {cores: 2}                                 | {preset: hikari-env, mode: Volume} | [{name: a}]              | spec.injection.mode: Unsupported value: "Volume"
            no injection               | ok   | {cores: 2}                                 |                      | [{name: a}]                            | spec.injection is required unless spec.dryRun is true
            ghosts reaped too soon     | ok   | {cores: 2, observe: {secretName: pg, reapGhostsAfterSeconds: 10}} | {preset: hikari-env} | [{name: a}] | spec.database.observe.reapGhostsAfterSeconds: Invalid value: 10: spec.database.observe.reapGhostsAfterSeconds in body should be greater than or equal to 30
            budget past int range      | ok   | {cores: 2, budget: 3000000000}             | {preset: hikari-env} | [{name: a}]                            | spec.database.budget: Invalid value: 3000000000: spec.database.budget in body should be less than or equal to 1000000
            huge maxConnections        | ok   | {cores: 2, maxConnections: 3000000000}     | {preset: hikari-env} | [{name: a}]                            | spec.database.maxConnections in body should be less than or equal to 1000000
            observe user, scope Database | ok | {cores: 2, observe: {secretName: pg, user: app}} | {preset: hikari-env} | [{name: a}]         | observe.user is required with scope User and only allowed with it
            observe scope User, no user | ok  | {cores: 2, observe: {secretName: pg, scope: User}} | {preset: hikari-env} | [{name: a}]       | observe.user is required with scope User and only allowed with it
            observe database, scope Server | ok | {cores: 2, observe: {secretName: pg, scope: Server, database: app}} | {preset: hikari-env} | [{name: a}] | observe.database is only allowed with scope Database
            observe reap, ApplicationName | ok | {cores: 2, observe: {secretName: pg, groupBy: ApplicationName, reapGhostsAfterSeconds: 60}} | {preset: hikari-env} | [{name: a}] | observe.reapGhostsAfterSeconds needs groupBy ClientAddress
            huge reserved              | ok   | {cores: 2, reservedConnections: 3000000000} | {preset: hikari-env} | [{name: a}]                           | spec.database.reservedConnections in body should be less than or equal to 1000000
            huge poolsPerPod           | ok   | {cores: 2}                                 | {preset: hikari-env} | [{name: a, poolsPerPod: 3000000000}]   | spec.targets[0].poolsPerPod in body should be less than or equal to 1000
            huge fixedReplicas         | ok   | {cores: 2}                                 | {preset: hikari-env} | [{name: a, basis: Fixed, fixedReplicas: 2147483647}] | spec.targets[0].fixedReplicas in body should be less than or equal to 1000000
            huge terminatingPods       | ok   | {cores: 2}                                 | {preset: hikari-env} | [{name: a, terminatingPods: 2147483648}] | spec.targets[0].terminatingPods in body should be less than or equal to 1000000
            target name too long       | ok   | {cores: 2}                                 | {preset: hikari-env} | [{name: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa}] | spec.targets[0].name: Too long
            container name too long    | ok   | {cores: 2}                                 | {preset: hikari-env, containers: [cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc]} | [{name: a}] | injection.containers names a container longer than 63 characters
            name too long              | long | {cores: 2}                                 | {preset: hikari-env} | [{name: a}]                            | metadata.name must be at most 63 characters
            """)
    void badSpecsAreRejectedNamingTheField(String title, String name, String database, String injection, String targets,
            String message) {
        String yaml = "apiVersion: poolbudget.io/v1alpha1\nkind: PoolPolicy\nmetadata: {name: "
                + ("long".equals(name) ? "p".repeat(64) : "p" + Math.abs(title.hashCode())) + "}\nspec:\n"
                + (database == null ? "" : "  database: " + database + "\n")
                + (injection == null ? "" : "  injection: " + injection + "\n")
                + "  targets: " + targets + "\n";
        assertRejected(title, yaml, message);
    }

    /** Issue 55: spec.allocation's bounds and rules. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            demand without live resize | {preset: hikari-env}              | {mode: Demand}                         | allocation.mode Demand moves connections only by live resize: set spec.injection.resize: Live
            lending with mode Weights  | {preset: hikari-env}              | {lendablePercent: 20}                  | allocation.lendablePercent, allocation.borrowingLimitPercent and allocation.periodSeconds do nothing with mode Weights
            borrowing with Weights     | {preset: hikari-env}              | {mode: Weights, borrowingLimitPercent: 50} | do nothing with mode Weights (the default): remove them, or set allocation.mode: Demand or Recommend
            period with Weights        | {preset: hikari-env}              | {periodSeconds: 30}                    | do nothing with mode Weights
            unknown allocation mode    | {preset: hikari-env}              | {mode: Fair}                           | spec.allocation.mode: Unsupported value: "Fair"
            lending past 100 percent   | {preset: hikari-env}              | {mode: Recommend, lendablePercent: 101} | spec.allocation.lendablePercent in body should be less than or equal to 100
            negative lending           | {preset: hikari-env}              | {mode: Recommend, lendablePercent: -1} | spec.allocation.lendablePercent in body should be greater than or equal to 0
            borrowing past 1000        | {preset: hikari-env, resize: Live} | {mode: Demand, borrowingLimitPercent: 1001} | spec.allocation.borrowingLimitPercent in body should be less than or equal to 1000
            negative borrowing         | {preset: hikari-env}              | {mode: Recommend, borrowingLimitPercent: -1} | spec.allocation.borrowingLimitPercent in body should be greater than or equal to 0
            period too short           | {preset: hikari-env}              | {mode: Recommend, periodSeconds: 4}    | spec.allocation.periodSeconds in body should be greater than or equal to 5
            period too long            | {preset: hikari-env, resize: Live} | {mode: Demand, periodSeconds: 301}    | spec.allocation.periodSeconds in body should be less than or equal to 300
            """)
    void badAllocationsAreRejectedNamingTheField(String title, String injection, String allocation, String message) {
        assertRejected(title, "apiVersion: poolbudget.io/v1alpha1\nkind: PoolPolicy\nmetadata: {name: p"
                + Math.abs(title.hashCode()) + "}\nspec:\n  database: {cores: 2}\n  injection: " + injection
                + "\n  allocation: " + allocation + "\n  targets: [{name: a}]\n", message);
    }

    /** Issue 55: each mode with what it needs is accepted, and mode defaults to Weights. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            allocation-default   | {preset: hikari-env}               | {}                                     | Weights
            allocation-recommend | {preset: hikari-env}               | {mode: Recommend, lendablePercent: 0}  | Recommend
            allocation-demand    | {preset: hikari-env, resize: Live} | {mode: Demand, lendablePercent: 100, borrowingLimitPercent: 1000, periodSeconds: 5} | Demand
            """)
    void theAllocationModesApply(String name, String injection, String allocation, String mode) {
        String yaml = "apiVersion: poolbudget.io/v1alpha1\nkind: PoolPolicy\nmetadata: {name: " + name + "}\nspec:\n"
                + "  database: {cores: 2}\n  injection: " + injection + "\n  allocation: " + allocation + "\n"
                + "  targets: [{name: a}]\n";
        var created = client.genericKubernetesResources("poolbudget.io/v1alpha1", "PoolPolicy").inNamespace(ns)
                .resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
        assertThat((Object) created.get("spec", "allocation", "mode")).isEqualTo(mode);
    }

    private static void assertRejected(String title, String yaml, String message) {
        // Sent as raw YAML, as kubectl would: the typed client would refuse unknown enum values itself.
        var policy = Serialization.unmarshal(yaml, GenericKubernetesResource.class);
        var rejected = catchThrowableOfType(KubernetesClientException.class, () -> client
                .genericKubernetesResources("poolbudget.io/v1alpha1", "PoolPolicy").inNamespace(ns).resource(policy)
                .create());
        assertThat(rejected).as(title + " was accepted").isNotNull();
        assertThat(rejected.getCode()).isEqualTo(422);
        assertThat(rejected.getStatus().getMessage()).contains(message);
    }

    /** Issue 21, item 7: the database section calibrate prints is accepted as it is. */
    @Test
    void theSnippetCalibratePrintsApplies() {
        String yaml = "apiVersion: poolbudget.io/v1alpha1\nkind: PoolPolicy\nmetadata: {name: calibrated}\nspec:\n"
                + "  database: " + io.poolbudget.cli.CalibrateCommand.databaseSnippet(2) + "\n"
                + "  injection: {preset: hikari-env}\n  targets: [{name: a}]\n";
        var created = client.genericKubernetesResources("poolbudget.io/v1alpha1", "PoolPolicy").inNamespace(ns)
                .resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
        assertThat(created.getMetadata().getName()).isEqualTo("calibrated");
    }

    /** Issue 54: each observe scope with the name it needs is accepted, and scope defaults to Database. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            scope-default  | {secretName: pg}                          | Database
            scope-database | {secretName: pg, database: orders}        | Database
            scope-user     | {secretName: pg, scope: User, user: app}  | User
            scope-server   | {secretName: pg, scope: Server}           | Server
            """)
    void theObserveScopesApply(String name, String observe, String scope) {
        String yaml = "apiVersion: poolbudget.io/v1alpha1\nkind: PoolPolicy\nmetadata: {name: " + name + "}\nspec:\n"
                + "  database: {cores: 2, observe: " + observe + "}\n  injection: {preset: hikari-env}\n"
                + "  targets: [{name: a}]\n";
        var created = client.genericKubernetesResources("poolbudget.io/v1alpha1", "PoolPolicy").inNamespace(ns)
                .resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
        assertThat((Object) created.get("spec", "database", "observe", "scope")).isEqualTo(scope);
    }

    @Test
    void bothDatabaseSectionsAndAnObservingDatabaseBudgetAreRejected() {
        var both = Serialization.unmarshal("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: both}
                spec:
                  database: {cores: 2}
                  databaseRef: {name: shared}
                  injection: {preset: hikari-env}
                  targets: [{name: a}]
                """, GenericKubernetesResource.class);
        var rejected = catchThrowableOfType(KubernetesClientException.class, () -> client
                .genericKubernetesResources("poolbudget.io/v1alpha1", "PoolPolicy").inNamespace(ns).resource(both)
                .create());
        assertThat(rejected).as("both database sections were accepted").isNotNull();
        assertThat(rejected.getStatus().getMessage()).contains("set exactly one of spec.database");

        var observing = Serialization.unmarshal("""
                apiVersion: poolbudget.io/v1alpha1
                kind: DatabaseBudget
                metadata: {name: it-rejected-observing}
                spec:
                  database: {cores: 2, observe: {secretName: pg}}
                  namespaceSelector: {}
                """, GenericKubernetesResource.class);
        var refused = catchThrowableOfType(KubernetesClientException.class, () -> client
                .genericKubernetesResources("poolbudget.io/v1alpha1", "DatabaseBudget").resource(observing).create());
        assertThat(refused).as("an observing DatabaseBudget was accepted").isNotNull();
        assertThat(refused.getStatus().getMessage())
                .contains("spec.database.observe is not available on a DatabaseBudget");

        var pooled = Serialization.unmarshal("""
                apiVersion: poolbudget.io/v1alpha1
                kind: DatabaseBudget
                metadata: {name: it-rejected-pooler}
                spec:
                  database: {pooler: {name: pgbouncer}}
                  namespaceSelector: {}
                """, GenericKubernetesResource.class);
        var notShared = catchThrowableOfType(KubernetesClientException.class, () -> client
                .genericKubernetesResources("poolbudget.io/v1alpha1", "DatabaseBudget").resource(pooled).create());
        assertThat(notShared).as("a DatabaseBudget of a pooler was accepted").isNotNull();
        assertThat(notShared.getStatus().getMessage())
                .contains("spec.database.pooler is not available on a DatabaseBudget");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            two kinds of evidence | {name: o, cluster: eu-1, secretName: l, evidence: {user: a, applicationNamePrefix: b}} | ledger.evidence needs exactly one of clientCIDR, applicationNamePrefix or user
            no evidence           | {name: o, cluster: eu-1, secretName: l, evidence: {}}                                 | ledger.evidence needs exactly one of clientCIDR, applicationNamePrefix or user
            not a CIDR            | {name: o, cluster: eu-1, secretName: l, evidence: {clientCIDR: 10.0.0.1}}             | ledger.evidence.clientCIDR must be an address range such as 10.88.0.0/16
            cluster not a name    | {name: o, cluster: EU 1, secretName: l, evidence: {user: a}}                          | spec.ledger.cluster
            zero weight           | {name: o, cluster: eu-1, weight: 0, secretName: l, evidence: {user: a}}               | spec.ledger.weight: Invalid value: 0
            short lease           | {name: o, cluster: eu-1, leaseSeconds: 2, secretName: l, evidence: {user: a}}         | spec.ledger.leaseSeconds: Invalid value: 2
            schema not a SQL name | {name: o, cluster: eu-1, schema: Bad-Schema, secretName: l, evidence: {user: a}}      | spec.ledger.schema
            no secret             | {name: o, cluster: eu-1, evidence: {user: a}}                                         | spec.ledger.secretName: Required value
            """)
    void aLedgerTheOperatorCouldNotUseIsRejectedNamingTheField(String title, String ledger, String message) {
        var budget = Serialization.unmarshal("""
                apiVersion: poolbudget.io/v1alpha1
                kind: DatabaseBudget
                metadata: {name: it-rejected-ledger}
                spec:
                  database: {cores: 2}
                  namespaceSelector: {}
                  ledger: %s
                """.formatted(ledger), GenericKubernetesResource.class);
        var refused = catchThrowableOfType(KubernetesClientException.class, () -> client
                .genericKubernetesResources("poolbudget.io/v1alpha1", "DatabaseBudget").resource(budget).create());
        assertThat(refused).as(title + " was accepted").isNotNull();
        assertThat(refused.getStatus().getMessage()).as(title).contains(message);
    }
}
