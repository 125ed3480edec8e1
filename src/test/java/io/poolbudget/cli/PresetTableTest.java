package io.poolbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.Preset;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The presets' one source ({@link Preset}) against what is written from it: the docs' table, the CRD's text and rules. */
class PresetTableTest {
    private static final Path DOC = Path.of("docs", "reference", "presets.md");

    @Test
    void theDocsHoldTheTablePlanPrints() throws IOException {
        String doc = Files.readString(DOC);
        int begin = doc.indexOf(PresetTable.BEGIN);
        int end = doc.indexOf(PresetTable.END);
        assertThat(begin).as("%s has the table's begin marker", DOC).isNotNegative();
        assertThat(end).as("%s has the table's end marker", DOC).isGreaterThan(begin);
        String table = doc.substring(begin + PresetTable.BEGIN.length(), end).strip() + "\n";
        assertThat(table).as("the table in %s, written from Preset: replace it with `plan --presets`", DOC)
                .isEqualTo(PresetTable.markdown());
    }

    @Test
    void theCrdRulesListThePresetsTheyAreAbout() {
        assertThat(InjectionSpec.NAMED_CEL).isEqualTo(cel(Preset::named));
        assertThat(InjectionSpec.URL_CEL).isEqualTo(cel(Preset::inConnectionString));
        assertThat(InjectionSpec.NOT_LIVE_CEL).isEqualTo(cel(p -> !p.live()));
    }

    @Test
    void kubectlExplainNamesEveryPresetWithWhatItsAppReadsAndItsDefault() {
        for (Preset p : Preset.values()) {
            String shown = p.named() ? p.knobs().max().replace(Preset.DATASOURCE, "") : p.knobs().max();
            assertThat(InjectionSpec.PRESET_DESCRIPTION).as(p.value())
                    .contains(p.value() + ": ")
                    .contains(p.named() ? shown.substring(shown.length() - 8) : shown);
            String after = InjectionSpec.PRESET_DESCRIPTION.substring(
                    InjectionSpec.PRESET_DESCRIPTION.indexOf(p.value() + ": "));
            String item = after.substring(0, after.indexOf(").") + 1);
            assertThat(item).as("%s's default in the CRD's text", p.value()).contains(p.appDefault().pools() != null
                    ? "default " + p.appDefault().pools()
                    : p.appDefault().cpus() != null ? p.appDefault().cpus() : "no limit");
        }
    }

    @Test
    void planPrintsTheTableAndSizesTheGoExampleFromItsManifests() {
        var presets = PlanCommandTest.plan("", "--presets");
        assertThat(presets.exit()).isZero();
        assertThat(presets.out()).isEqualTo(PresetTable.markdown());
        // 2 replicas + 1 surge (25%, up) + 1 terminating = 4 peak pods; budget 8 -> 2 per pod
        var go = PlanCommandTest.plan("", "-f", "examples/stacks/go-pgx.yaml");
        assertThat(go.exit()).as(go.err()).isZero();
        assertThat(go.out()).contains("shortener").contains(" 2 ");
        assertThat(go.err()).as("its template reads the values").doesNotContain("warning");
    }

    /** docs/reference/presets.md's app without a preset: its manifests plan without a warning, to what it says. */
    @Test
    void theDocsExampleOfAnAppWithoutAPresetPlansAsTheyNarrateIt() throws IOException {
        String doc = Files.readString(DOC);
        String section = doc.substring(doc.indexOf("## An app without a preset"));
        int yaml = section.indexOf("```yaml\n") + "```yaml\n".length();
        var run = PlanCommandTest.plan(section.substring(yaml, section.indexOf("```\n", yaml)), "-f", "-");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).doesNotContain("warning");
        Matcher said = Pattern.compile("gives the Deployment (\\d+) per pod: .*?, (\\d+) ÷ (\\d+)\\.", Pattern.DOTALL)
                .matcher(section);
        assertThat(said.find()).as("%s says what plan gives the example", DOC).isTrue();
        String[] row = run.out().lines().filter(l -> l.startsWith("Deployment/")).findFirst().orElseThrow().split(
                "\\s+");
        assertThat(row[row.length - 2]).as("its pool size").isEqualTo(said.group(1));
        assertThat(run.out()).as("its budget").contains("of " + said.group(2) + " connections");
        assertThat(row[row.length - 5]).as("its peak pods").isEqualTo(said.group(3));
    }

    @Test
    void planSaysWhatTheOperatorWouldOfATemplateThatDoesNotReadTheValues() throws IOException {
        String manifest = Files.readString(Path.of("examples/stacks/go-pgx.yaml")).lines()
                .filter(l -> !l.strip().equals("envFrom:") && !l.contains("configMapRef"))
                .collect(Collectors.joining("\n"));
        assertThat(manifest).doesNotContain("configMapRef");
        var run = PlanCommandTest.plan(manifest, "-f", "-");
        assertThat(run.exit()).isZero();
        assertThat(run.err()).contains("plan: warning:").contains("Deployment/shortener: no container reads the "
                + "operator's values (mode EnvFrom): add to your container envFrom: [{configMapRef: {name: "
                + "poolbudget-links-db-deployment-shortener}}]");
    }

    private static String cel(Predicate<Preset> which) {
        return Arrays.stream(Preset.values()).filter(which).map(p -> "'" + p.value() + "'")
                .collect(Collectors.joining(", ", "[", "]"));
    }
}
