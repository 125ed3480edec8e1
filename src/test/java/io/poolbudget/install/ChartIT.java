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
            {"leaderElection.enabled=false", "rbac.create=false", "serviceAccount.create=false", "serviceAccount.name=x"}};
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
            assertThat(v.exit()).as("kubernetes-validate of the render with " + List.of(sets) + ":\n" + v.output()).isZero();
        }
    }

    @Test
    void theOperatorPodMeetsTheRestrictedPodSecurityStandard() {
        var pod = deployment(ChartTools.render("ops")).path("spec").path("template").path("spec");
        assertThat(pod.path("securityContext").path("runAsNonRoot").asBoolean()).isTrue();
        assertThat(pod.path("securityContext").path("seccompProfile").path("type").asText()).isEqualTo("RuntimeDefault");
        var container = pod.path("containers").get(0);
        var sc = container.path("securityContext");
        assertThat(sc.path("allowPrivilegeEscalation").isBoolean() && !sc.path("allowPrivilegeEscalation").asBoolean()).isTrue();
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
        assertThat(namespaced).extracting(d -> d.path("kind").asText()).doesNotContain("ClusterRole", "ClusterRoleBinding");
        assertThat(namespaced).filteredOn(d -> d.path("kind").asText().equals("Role"))
                .extracting(d -> d.path("metadata").path("namespace").asText()).containsExactlyInAnyOrder("team-a", "ops");
        var env = deployment(namespaced).path("spec").path("template").path("spec").path("containers").get(0).path("env");
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

    private static JsonNode deployment(List<JsonNode> docs) {
        return docs.stream().filter(d -> d.path("kind").asText().equals("Deployment")).findFirst().orElseThrow();
    }
}
