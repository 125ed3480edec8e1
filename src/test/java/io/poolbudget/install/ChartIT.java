package io.poolbudget.install;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Helm chart and operator/ as files: lint, Kubernetes 1.34 schemas, the restricted pod
 * security settings, no wildcard or Secret access, the CRD and operator/ in step with the build.
 * (What the operator really calls is checked against the chart on a cluster by InstallE2E.)
 */
class ChartIT {

    @Test
    void lintPassesStrictly() {
        var r = ChartTools.helm("lint", "--strict", ChartTools.CHART.toString());
        assertThat(r.exit()).as(r.output()).isZero();
    }

    @Test
    void everyRenderValidatesAgainstKubernetes134(@TempDir Path dir) throws IOException {
        String[][] variants = {{}, {"watchNamespaces={team-a,team-b}"}, {"replicaCount=2"},
                {"leaderElection.enabled=false", "rbac.create=false", "serviceAccount.create=false",
                        "serviceAccount.name=x"},
                {"grafanaDashboard.enabled=true", "dashboard.enabled=false"}};
        for (String[] sets : variants) {
            var args = new java.util.ArrayList<>(List.of("template", "poolbudget", ChartTools.CHART.toString(),
                    "--namespace", "ops", "--include-crds"));
            for (String s : sets) {
                args.addAll(List.of("--set", s));
            }
            var render = ChartTools.helm(args.toArray(String[]::new));
            assertThat(render.exit()).as(render.output()).isZero();
            Path file = dir.resolve("render.yaml");
            Files.writeString(file, render.output());
            var v = ChartTools.validate(file);
            assertThat(v.exit()).as("kubernetes-validate of the render with " + List.of(sets) + ":\n" + v.output())
                    .isZero();
        }
    }

    @Test
    void theOperatorPodMeetsTheRestrictedPodSecurityStandard() {
        var pod = deployment(ChartTools.render("ops")).path("spec").path("template").path("spec");
        assertThat(pod.path("securityContext").path("runAsNonRoot").asBoolean()).isTrue();
        assertThat(pod.path("securityContext").path("seccompProfile").path("type").asText())
                .isEqualTo("RuntimeDefault");
        var container = pod.path("containers").get(0);
        var sc = container.path("securityContext");
        assertThat(sc.path("allowPrivilegeEscalation").isBoolean() && !sc.path("allowPrivilegeEscalation").asBoolean())
                .isTrue();
        assertThat(sc.path("readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(sc.path("capabilities").path("drop").toString()).isEqualTo("[\"ALL\"]");
        assertThat(container.path("resources").path("limits").path("memory").asText()).isNotEmpty();
        assertThat(container.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/q/health/ready");
        assertThat(container.path("livenessProbe").path("httpGet").path("path").asText()).isEqualTo("/q/health/live");
    }

    @Test
    void noWildcardsNoSecretsNoClusterRoleInNamespacedMode() {
        for (var docs : List.of(ChartTools.render("ops"), ChartTools.render("ops", "watchNamespaces={team-a}"))) {
            for (JsonNode doc : docs) {
                for (JsonNode rule : doc.path("rules")) {
                    assertThat(rule.toString()).as(doc.path("kind").asText() + " rule " + rule).doesNotContain("\"*\"")
                            .doesNotContain("secrets");
                }
            }
        }
        var namespaced = ChartTools.render("ops", "watchNamespaces={team-a}");
        assertThat(namespaced).extracting(d -> d.path("kind").asText()).doesNotContain("ClusterRole",
                "ClusterRoleBinding");
        assertThat(namespaced).filteredOn(d -> d.path("kind").asText().equals("Role"))
                .extracting(d -> d.path("metadata").path("namespace").asText())
                .containsExactlyInAnyOrder("team-a", "ops");
        var env = deployment(namespaced).path("spec").path("template").path("spec").path("containers").get(0)
                .path("env");
        assertThat(env.toString()).contains("{\"name\":\"POOLBUDGET_WATCH_NAMESPACES\",\"value\":\"team-a\"}");
    }

    @Test
    void twoReplicasWithoutLeaderElectionAreRefused() {
        var r = ChartTools.helm("template", "x", ChartTools.CHART.toString(), "--set", "replicaCount=2", "--set",
                "leaderElection.enabled=false");
        assertThat(r.exit()).isNotZero();
        assertThat(r.output()).contains("replicaCount above 1 needs leaderElection.enabled=true");
        var bad = ChartTools.helm("template", "x", ChartTools.CHART.toString(), "--set", "stabilizationWindow=3min");
        assertThat(bad.output()).contains("/stabilizationWindow").contains("does not match pattern");
    }

    @Test
    void theChartCarriesTheGeneratedCrd() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("crds"))) {
            for (Path crd : files.toList()) {
                Path inChart = ChartTools.CHART.resolve("crds").resolve(crd.getFileName());
                assertThat(inChart).as("run hack/update-crds.sh: the chart's copy of " + crd + " is missing").exists();
                assertThat(Files.readString(inChart)).as("run hack/update-crds.sh: " + inChart + " differs from " + crd)
                        .isEqualTo(Files.readString(crd));
            }
        }
    }

    @Test
    void operatorDirectoryIsTheChartsDefaultRender(@TempDir Path dir) throws IOException {
        var r = ChartTools.run(List.of("hack/render-operator.sh", "--out", dir.toString()));
        assertThat(r.exit()).as(r.output()).isZero();
        for (String f : List.of("kustomization.yaml", "namespace.yaml", "poolbudget.yaml")) {
            assertThat(Files.readString(Path.of("operator", f)))
                    .as("operator/" + f + " differs from the chart's render: run hack/render-operator.sh and commit")
                    .isEqualTo(Files.readString(dir.resolve(f)));
        }
    }

    @Test
    void secretsAreReadableOnlyByTheNamesListedForObservation() {
        var rules = ChartTools.render("ops", "observe.secretNames={pg-monitor,reports-monitor}").stream()
                .filter(d -> d.path("kind").asText().equals("ClusterRole"))
                .flatMap(d -> java.util.stream.StreamSupport.stream(d.path("rules").spliterator(), false))
                .filter(r -> r.path("resources").toString().contains("secrets")).toList();
        assertThat(rules).singleElement().satisfies(r -> {
            assertThat(r.path("verbs").toString()).isEqualTo("[\"get\"]");
            assertThat(r.path("resourceNames").toString()).isEqualTo("[\"pg-monitor\",\"reports-monitor\"]");
        });
    }

    /** Issue 21, item 3: under Prometheus Operator the series keep the namespace of the policy they describe. */
    @Test
    void theServiceMonitorHonoursTheSeriesOwnNamespaceLabel() {
        var monitor = ChartTools.render("ops", "metrics.serviceMonitor.enabled=true").stream()
                .filter(d -> d.path("kind").asText().equals("ServiceMonitor")).findFirst().orElseThrow();
        assertThat(monitor.path("spec").path("endpoints")).singleElement()
                .satisfies(e -> assertThat(e.path("honorLabels").asBoolean()).isTrue());
    }

    /** Issue 21, items 1 and 6: editors get PoolPolicies through the built-in roles; the port is fenced by default. */
    @Test
    void editorsGetPoolPoliciesAndTheOperatorsPortIsFenced() {
        var docs = ChartTools.render("ops");
        var aggregated = docs.stream().filter(d -> d.path("kind").asText().equals("ClusterRole")
                && d.path("metadata").path("labels").toString().contains("aggregate-to-")).toList();
        assertThat(aggregated).extracting(d -> d.path("metadata").path("labels").toString())
                .anySatisfy(l -> assertThat(l).contains("\"rbac.authorization.k8s.io/aggregate-to-edit\":\"true\"",
                        "\"rbac.authorization.k8s.io/aggregate-to-admin\":\"true\""))
                .anySatisfy(l -> assertThat(l).contains("\"rbac.authorization.k8s.io/aggregate-to-view\":\"true\""));
        assertThat(aggregated).allSatisfy(d -> assertThat(d.path("rules").toString()).contains("poolpolicies")
                .doesNotContain("databasebudgets").doesNotContain("deployments"));
        assertThat(ChartTools.render("ops", "rbac.aggregateToEditView=false"))
                .noneMatch(d -> d.path("metadata").path("labels").toString().contains("aggregate-to-"));

        var policy = docs.stream().filter(d -> d.path("kind").asText().equals("NetworkPolicy")).findFirst()
                .orElseThrow();
        assertThat(policy.path("spec").path("policyTypes").toString()).isEqualTo("[\"Ingress\"]");
        assertThat(policy.path("spec").path("ingress").get(0).path("from").toString())
                .isEqualTo("[{\"podSelector\":{}},{\"namespaceSelector\":{\"matchLabels\":"
                        + "{\"kubernetes.io/metadata.name\":\"monitoring\"}}}]");
        assertThat(ChartTools.render("ops", "networkPolicy.enabled=false"))
                .noneMatch(d -> d.path("kind").asText().equals("NetworkPolicy"));
    }

    @Test
    void theDashboardsEventRulesComeAndGoWithIt() {
        for (boolean on : new boolean[]{true, false}) {
            var docs = ChartTools.render("ops", "dashboard.enabled=" + on);
            JsonNode events = docs.stream().filter(d -> d.path("kind").asText().equals("ClusterRole"))
                    .flatMap(d -> java.util.stream.StreamSupport.stream(d.path("rules").spliterator(), false))
                    .filter(r -> r.path("resources").toString().contains("\"events\"")).findFirst().orElseThrow();
            assertThat(events.path("verbs").toString())
                    .isEqualTo(on ? "[\"create\",\"list\",\"watch\"]" : "[\"create\"]");
            assertThat(deployment(docs).path("spec").path("template").toString())
                    .contains("{\"name\":\"POOLBUDGET_DASHBOARD_ENABLED\",\"value\":\"" + on + "\"}");
        }
    }

    @Test
    void theGrafanaDashboardIsWellFormed() throws IOException {
        var cm = ChartTools.render("ops", "grafanaDashboard.enabled=true", "grafanaDashboard.namespace=monitoring")
                .stream()
                .filter(d -> d.path("kind").asText().equals("ConfigMap")).findFirst().orElseThrow();
        assertThat(cm.path("metadata").path("namespace").asText()).isEqualTo("monitoring");
        assertThat(cm.path("metadata").path("labels").path("grafana_dashboard").asText()).isEqualTo("1");
        JsonNode d = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(cm.path("data").path("poolbudget.json").asText());
        assertThat(d.path("uid").asText()).matches("[a-zA-Z0-9_-]{1,40}");
        assertThat(d.path("title").asText()).isNotBlank();
        assertThat(d.path("schemaVersion").isInt()).isTrue();
        assertThat(d.path("templating").path("list").findValuesAsText("name")).contains("datasource", "namespace");
        var ids = new java.util.HashSet<Integer>();
        int panels = 0;
        for (JsonNode p : d.path("panels")) {
            assertThat(ids.add(p.path("id").asInt())).as("panel ids are unique").isTrue();
            JsonNode g = p.path("gridPos");
            assertThat(g.path("x").asInt() + g.path("w").asInt()).as(p.path("title").asText() + " fits 24 columns")
                    .isBetween(1, 24);
            assertThat(g.path("h").asInt()).isPositive();
            if (p.path("type").asText().equals("row")) {
                continue;
            }
            panels++;
            assertThat(p.path("type").asText()).isIn("timeseries", "stat");
            assertThat(p.path("datasource").path("uid").asText()).isEqualTo("${datasource}");
            assertThat(p.path("targets")).as(p.path("title").asText()).isNotEmpty();
            for (JsonNode t : p.path("targets")) {
                assertThat(t.path("expr").asText()).isNotBlank();
                assertThat(t.path("refId").asText()).isNotBlank();
            }
        }
        assertThat(panels).isGreaterThanOrEqualTo(10);
    }

    @Test
    void everyAlertHasAnExpressionASeverityAndWordsForAPerson() {
        var rule = ChartTools.render("ops", "prometheusRule.enabled=true", "prometheusRule.raisePendingSeconds=600")
                .stream()
                .filter(d -> d.path("kind").asText().equals("PrometheusRule")).findFirst().orElseThrow();
        assertThat(rule.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
        var alerts = new java.util.ArrayList<String>();
        for (JsonNode r : rule.path("spec").path("groups").get(0).path("rules")) {
            alerts.add(r.path("alert").asText());
            assertThat(r.path("expr").asText()).as(r.path("alert").asText()).isNotBlank();
            assertThat(r.path("labels").path("severity").asText()).isIn("info", "warning", "critical");
            assertThat(r.path("annotations").path("summary").asText()).isNotBlank();
            assertThat(r.path("annotations").path("description").asText()).isNotBlank();
        }
        assertThat(alerts).containsExactlyInAnyOrder("PoolBudgetOversubscribed", "PoolBudgetPodsOverBudget",
                "PoolBudgetRaisePendingTooLong", "PoolBudgetConflict", "PoolBudgetOperatorNotReconciling",
                "PoolBudgetReconcileErrors", "PoolBudgetOperatorAbsent", "PoolBudgetObservedOverBudget",
                "PoolBudgetGhostConnections", "PoolBudgetObservationFailing");
        assertThat(rule.toString()).contains("poolbudget_target_raise_pending_seconds) > 600");
    }

    private static JsonNode deployment(List<JsonNode> docs) {
        return docs.stream().filter(d -> d.path("kind").asText().equals("Deployment")).findFirst().orElseThrow();
    }
}
