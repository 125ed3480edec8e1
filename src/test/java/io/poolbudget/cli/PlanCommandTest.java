package io.poolbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PlanCommandTest {
    static final String WORKLOADS = """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: api, labels: {tier: web}}
            spec:
              replicas: 4
              strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
            ---
            apiVersion: autoscaling/v2
            kind: HorizontalPodAutoscaler
            metadata: {name: api}
            spec:
              scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
              maxReplicas: 8
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: worker, labels: {tier: batch}}
            spec:
              replicas: 2
              strategy: {type: Recreate}
            """;

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {}

    private Path file(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    static Run plan(String stdin, String... args) {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        int exit = PlanCommand.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static String policy(String database, String targets) {
        return "apiVersion: poolbudget.io/v1alpha1\nkind: PoolPolicy\nmetadata: {name: db}\nspec:\n  database: "
                + database + "\n  injection: {preset: hikari-env}\n  targets:\n" + targets;
    }

    /** Issue 21, item 1: plan refuses what the CRD refuses, from the same list (EnvNames). */
    @Test
    void aVariableThatChangesHowAProcessStartsIsRefused() throws IOException {
        for (String injection : new String[]{"{maxPoolSizeEnv: JAVA_TOOL_OPTIONS}",
                "{maxPoolSizeEnv: POOL, minIdleEnv: LD_PRELOAD}"}) {
            Path p = file("p.yaml",
                    policy("{cores: 2}", "    - {name: api}\n").replace("{preset: hikari-env}", injection));
            Run run = plan(WORKLOADS, "-f", p.toString(), "-f", "-");
            assertThat(run.exit()).as(run.out()).isEqualTo(PlanCommand.BAD_INPUT);
            assertThat(run.err()).contains("p.yaml, document 1 (PoolPolicy db): spec.injection."
                    + (injection.contains("LD_") ? "minIdleEnv" : "maxPoolSizeEnv")
                    + " names a variable that changes how a process starts or loads code");
        }
    }

    /** Issue 21, item 7: what calibrate prints plans as it is, without cores. */
    @Test
    void theDatabaseSectionCalibratePrintsPlans() throws IOException {
        Path p = file("p.yaml",
                policy(CalibrateCommand.databaseSnippet(40), "    - {name: api}\n    - {name: worker}\n"));
        Run run = plan("", "-f", p.toString(), "-f", file("w.yaml", WORKLOADS).toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("budget 40 = explicit budget 40; no maxConnections cap");
    }

    @Test
    void aPlanThatFitsExitsZeroAndShowsEveryNumber() throws IOException {
        // api: HPA max 8 + 1 surge + 1 terminating = 10 peak pods; worker: Recreate, 2.
        // Budget 40; minimums 12, then fair order with weights 1:1.
        Path p = file("p.yaml", policy("{cores: 20}", "    - {name: api}\n    - {name: worker}\n"));
        Path w = file("w.yaml", WORKLOADS);
        Run run = plan("", "-f", p.toString(), "-f", w.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("PoolPolicy db: fits, ", "budget 40 = cores 20 × 2 per core",
                "Deployment/api", "8 (HpaMax)",
                "peak pods 10 = 8 (HorizontalPodAutoscaler/api maxReplicas 8) + 1 surge + 1 terminating",
                "Deployment/worker", "2 (Current)");
    }

    @Test
    void jsonCarriesTheSameAllocation() throws IOException {
        Path p = file("p.yaml", policy("{cores: 20}", "    - {name: api}\n    - {name: worker}\n"));
        Run run = plan(WORKLOADS, "-f", p.toString(), "-f", "-", "-o", "json");
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(run.out()).path("policies").get(0);
        assertThat(json.path("verdict").asText()).isEqualTo("Fits");
        assertThat(json.path("budget").path("connections").asInt()).isEqualTo(40);
        long sum = 0;
        for (JsonNode t : json.path("targets")) {
            assertThat(t.path("connections").asLong())
                    .isEqualTo(
                            t.path("peakPods").asLong() * t.path("poolsPerPod").asLong() * t.path("poolSize").asLong());
            sum += t.path("connections").asLong();
        }
        assertThat(sum).isEqualTo(json.path("allocated").asLong()).isLessThanOrEqualTo(40);
        assertThat(json.path("targets").get(0).path("peakPods").asInt()).isEqualTo(10);
    }

    @Test
    void aReaderEndpointOverIdenticalReplicasMultipliesTheBudget() throws IOException {
        // 3 replicas of 2 cores: 4 connections each, 12 through the reader endpoint
        Path p = file("p.yaml", policy("{cores: 2, instances: 3}", "    - {name: api}\n    - {name: worker}\n"));
        Run run = plan(WORKLOADS, "-f", p.toString(), "-f", "-");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("budget 12 = 3 instances × 4 per instance, where per instance budget 4 = cores 2");
        Path bad = file("bad.yaml", policy("{cores: 2, instances: 0}", "    - {name: api}\n"));
        Run refused = plan(WORKLOADS, "-f", bad.toString(), "-f", "-");
        assertThat(refused.exit()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(refused.err()).contains("spec.database.instances must be at least 1, got 0");
    }

    @Test
    void oversubscribedExitsThreeWithTheMinimums() throws IOException {
        Path p = file("p.yaml", policy("{cores: 2}", "    - {name: api, minPoolSize: 2}\n    - {name: worker}\n"));
        Run run = plan(WORKLOADS, "-f", p.toString(), "-f", "-");
        assertThat(run.exit()).isEqualTo(PlanCommand.OVERSUBSCRIBED);
        // minimums: 10 × 2 + 2 × 1 = 22 against a budget of 4
        assertThat(run.out())
                .contains("OVERSUBSCRIBED 5.50×, the minimums alone need 22 connections and the budget is 4");
    }

    @Test
    void selectorsStatefulSetsAndKedaScaledObjects() throws IOException {
        String extra = """
                ---
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: ledger}
                spec: {replicas: 3}
                ---
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata: {name: worker-scaler}
                spec:
                  scaleTargetRef: {name: worker}
                  maxReplicaCount: 5
                """;
        Path p = file("p.yaml", policy("{cores: 50}", """
                    - selector: {matchExpressions: [{key: tier, operator: In, values: [web, batch]}]}
                    - {name: ledger, kind: StatefulSet, poolsPerPod: 2}
                """));
        Run run = plan(WORKLOADS + extra, "-f", p.toString(), "-f", "-", "-o", "json");
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode targets = new ObjectMapper().readTree(run.out()).path("policies").get(0).path("targets");
        assertThat(targets).hasSize(3);
        assertThat(targets.get(0).path("workload").asText()).isEqualTo("Deployment/api");
        assertThat(targets.get(1).path("workload").asText()).isEqualTo("Deployment/worker");
        assertThat(targets.get(1).path("basisReplicas").asInt()).isEqualTo(5); // KEDA maxReplicaCount, Recreate: no surge
        assertThat(targets.get(1).path("peakPods").asInt()).isEqualTo(5);
        assertThat(targets.get(2).path("workload").asText()).isEqualTo("StatefulSet/ledger");
        assertThat(targets.get(2).path("peakPods").asInt()).isEqualTo(3);
        assertThat(targets.get(2).path("connections").asInt())
                .isEqualTo(3 * 2 * targets.get(2).path("poolSize").asInt());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            zero cores             | {cores: 0}                                | - {name: api}                          | p.yaml, document 1 (PoolPolicy db): spec.database.cores must be at least 1, got 0
            neither cores nor budget | {effectiveSpindles: 2}                  | - {name: api}                          | p.yaml, document 1 (PoolPolicy db): spec.database.cores is required unless spec.database.budget is given
            reserved at max        | {cores: 2, maxConnections: 10, reservedConnections: 10} | - {name: api}            | spec.database.reservedConnections must be below database.maxConnections
            misspelt field         | {corse: 2}                                | - {name: api}                          | p.yaml, document 1 (PoolPolicy db): spec.database.corse is not a field of PoolPolicy
            wrong type             | {cores: four}                             | - {name: api}                          | spec.database.cores has the wrong type
            name and selector      | {cores: 2}                                | - {name: api, selector: {}}            | spec.targets[0] must set exactly one of name or selector
            min above max          | {cores: 2}                                | - {name: api, minPoolSize: 5, maxPoolSize: 2} | spec.targets[0].minPoolSize must not exceed maxPoolSize
            fixed without replicas | {cores: 2}                                | - {name: api, basis: Fixed}            | spec.targets[0].fixedReplicas is required with basis Fixed
            unknown basis          | {cores: 2}                                | - {name: api, basis: Always}           | spec.targets[0].basis has the wrong type
            unknown workload       | {cores: 2}                                | - {name: nope}                         | spec.targets[0].name names Deployment/nope, which is not in the input: add its manifest with -f
            named twice            | {cores: 2}                                | - {name: api}\\n    - {name: api}       | spec.targets[1] names Deployment/api a second time
            weight 0, no match     | {cores: 2}                                | - {selector: {matchLabels: {tier: none}}, weight: 0} | spec.targets[0].weight must be at least 1
            min above max, no match | {cores: 2}                               | - {selector: {matchLabels: {tier: none}}, minPoolSize: 5, maxPoolSize: 2} | spec.targets[0].minPoolSize must not exceed maxPoolSize
            bad selector operator  | {cores: 2}                                | - {selector: {matchExpressions: [{key: a, operator: Near}]}} | spec.targets[0].selector matchExpressions[0].operator 'Near' is not one of In, NotIn, Exists, DoesNotExist
            """)
    void badPoliciesExitTwoNamingFileDocumentAndField(String name, String database, String targets, String message)
            throws IOException {
        Path p = file("p.yaml", policy(database, "    " + targets.replace("\\n", "\n") + "\n"));
        Run run = plan(WORKLOADS, "-f", p.toString(), "-f", "-");
        assertThat(run.exit()).as(run.out()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(run.err()).startsWith("plan: ").contains(message);
        assertThat(run.out()).isEmpty();
    }

    @Test
    void unreadableInputsExitTwo() throws IOException {
        assertThat(plan("", "-f", dir.resolve("missing.yaml").toString()).err()).contains("missing.yaml: no such file");
        Path broken = file("broken.yaml", "kind: PoolPolicy\n  spec: [\n");
        assertThat(plan("", "-f", broken.toString()).err()).contains("broken.yaml: not valid YAML");
        Run none = plan(WORKLOADS);
        assertThat(none.exit()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(none.err()).contains("no PoolPolicy in the input (-)");
        assertThat(plan("", "-o", "yaml").err()).contains("-o must be table or json");
        assertThat(plan("", "--frobnicate").exit()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(plan("", "--help").out()).contains("Usage: plan");
    }

    @Test
    void yamlAnchorsAndAliasesAreExpandedAsKubectlDoes() {
        String workloads = """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: &name web, labels: {app: *name}}
                spec: {replicas: 2}
                """;
        String policy = """
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db, labels: &labels {app: web}}
                spec:
                  database: {cores: 8}
                  injection: {preset: hikari-env}
                  targets: [{selector: {matchLabels: *labels}}]
                """;
        Run run = plan(workloads + "---\n" + policy);
        assertThat(run.err()).isEmpty();
        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("Deployment/web");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            cores as a string       | {cores: "16"}                    | spec.database.cores has the wrong type
            cores with a fraction   | {cores: 2.5}                     | spec.database.cores has the wrong type
            """)
    void numbersAreNumbersAndIntegersWhole(String name, String database, String message) {
        Run run = plan(WORKLOADS + "---\n" + policy(database, "    - {name: api}\n"));
        assertThat(run.exit()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(run.err()).contains(message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no metadata        | {apiVersion: apps/v1, kind: Deployment, spec: {replicas: 1}}                    | document 2 (Deployment): metadata.name is required
            no name            | {apiVersion: apps/v1, kind: Deployment, metadata: {labels: {a: b}}}               | metadata.name is required
            HPA min above max  | {apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler, metadata: {name: h}, spec: {minReplicas: 5, maxReplicas: 2, scaleTargetRef: {kind: Deployment, name: api}}} | spec.minReplicas (5) must not exceed spec.maxReplicas (2)
            surge and unavailable 0 | {apiVersion: apps/v1, kind: Deployment, metadata: {name: z}, spec: {strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: "0%"}}}} | maxSurge and maxUnavailable must not both be 0
            unavailable 150%   | {apiVersion: apps/v1, kind: Deployment, metadata: {name: z}, spec: {strategy: {rollingUpdate: {maxUnavailable: "150%"}}}} | maxUnavailable: must not be above 100%, got 150%
            """)
    void objectsKubectlWouldRefuseAreRefused(String name, String object, String message) {
        Run run = plan(policy("{cores: 2}", "    - {name: api}\n") + "---\n" + object + "\n---\n" + WORKLOADS);
        assertThat(run.exit()).as(run.out()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(run.err()).startsWith("plan: ").contains(message).doesNotContain("Exception");
    }

    @Test
    void aPolicyWithNeitherInjectionNorDryRunIsRefusedAsTheApiServerRefusesIt() {
        String policy = policy("{cores: 2}", "    - {name: api}\n").replace("  injection: {preset: hikari-env}\n", "");
        Run run = plan(WORKLOADS + "---\n" + policy);
        assertThat(run.exit()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(run.err()).contains("spec.injection is required unless spec.dryRun is true");
        Run dry = plan(WORKLOADS + "---\n" + policy.replace("spec:\n", "spec:\n  dryRun: true\n"));
        assertThat(dry.exit()).as(dry.err()).isNotEqualTo(PlanCommand.BAD_INPUT);
    }

    @Test
    void aHugeReplicaCountIsOversubscribedNotACrash() {
        String huge = WORKLOADS.replace("replicas: 4", "replicas: 2147483647");
        Run run = plan(huge + "---\n" + policy("{cores: 2}", "    - {name: api}\n"));
        assertThat(run.exit()).as(run.err()).isEqualTo(PlanCommand.OVERSUBSCRIBED);
        assertThat(run.err()).doesNotContain("Exception");
    }

    @Test
    void nonUtf8InputIsRefusedAlikeFromAFileAndStdinNamingTheLine() throws IOException {
        byte[] latin1 = (WORKLOADS + "# caf\u00e9\n").getBytes(StandardCharsets.ISO_8859_1);
        int line = WORKLOADS.split("\n", -1).length;
        Path f = Files.write(dir.resolve("latin1.yaml"), latin1);
        assertThat(plan("", "-f", f.toString()).err()).contains("latin1.yaml: line " + line + ": is not UTF-8");
        var err = new ByteArrayOutputStream();
        int exit = PlanCommand.run(new String[]{"-f", "-"}, new ByteArrayInputStream(latin1),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("<stdin>: line " + line + ": is not UTF-8");
    }

    @Test
    void aLineLongerThanAnyKubernetesValueIsRefusedBeforeParsing() {
        String longLine = WORKLOADS + "a: " + "x".repeat(YamlText.MAX_LINE) + "\n";
        Run run = plan(longLine);
        assertThat(run.exit()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(run.err()).contains("<stdin>: line " + (WORKLOADS.split("\n", -1).length) + ": is 1024 KiB long");
    }

    @Test
    void oversizedInputIsRefusedBeforeParsing() {
        String huge = "a: \"" + "x".repeat(YamlText.MAX_BYTES) + "\"\n";
        Run run = plan(huge);
        assertThat(run.exit()).isEqualTo(PlanCommand.BAD_INPUT);
        assertThat(run.err()).contains("<stdin>: is larger than 16 MiB");
    }
}
