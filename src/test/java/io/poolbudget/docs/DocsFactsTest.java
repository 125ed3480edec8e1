package io.poolbudget.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What docs/ and README.md say of the presets and of the servers observe reads is what the code decides: each
 * preset's variables and app default ({@code Preset}), the default with variable names of your own ({@code
 * Injection.appDefault}), the servers and jdbcUrl prefixes ({@code Dialect.servers()}). The presets' own table is
 * generated and checked by {@code PresetTableTest}; these check every other place such a fact is stated.
 */
class DocsFactsTest {
    private static final List<DocUnits> DOCS = DocUnits.all();

    @Test
    void tablesAboutAPresetGiveItsDefaultAndItsVariables() {
        assertThat(DocFacts.presetRows(DOCS)).as("rows about a preset that disagree with Preset").isEmpty();
    }

    @Test
    void sentencesGiveEachPresetsDefault() {
        assertThat(DocFacts.presetDefaultsInProse(DOCS)).as("sentences that give a preset's default").isEmpty();
        assertThat(DocFacts.stackDefaults(DOCS)).as("defaults named by stack (HikariCP's N, N for Agroal)").isEmpty();
        assertThat(DocFacts.ownNamesDefault(DOCS)).as("the default assumed with maxPoolSizeEnv").isEmpty();
    }

    @Test
    void everyVariableNamedLikeAPresetsIsOneAPresetReads() {
        assertThat(DocFacts.presetVariables(DOCS)).as("variables named like a preset's that no preset reads")
                .isEmpty();
        assertThat(DocFacts.yamlComments(DOCS)).as("YAML comments on a preset").isEmpty();
    }

    @Test
    void listsOfTheServersObserveReadsNameThemAll() {
        assertThat(DocFacts.servers(DOCS)).as("lists of the servers observe reads").isEmpty();
    }

    /** Each check fires on the wrong statement it is there for, in the forms the docs have had. */
    @Test
    void eachCheckCatchesAWrongFact() {
        assertThat(DocFacts.presetRows(md("| preset | maximum pool size | app default assumed |", "|---|---|---|",
                "| `quarkus-agroal` | `QUARKUS_DATASOURCE_JDBC_MAX_SIZE` | 20 |",
                "| `hikari-env` | `HIKARI_MAX_POOL_SIZE` | 10 |"))).containsExactly(
                        "t.md:3: quarkus-agroal's default is 50, not 20",
                        "t.md:4: hikari-env does not read HIKARI_MAX_POOL_SIZE (it reads [HIKARI_MAXIMUM_POOL_SIZE, "
                                + "HIKARI_MINIMUM_IDLE])");
        assertThat(DocFacts.presetDefaultsInProse(md("So `keycloak` counts 100 and `quarkus-agroal` counts 20.")))
                .singleElement().asString().contains("`quarkus-agroal` counts 20: its default is 50");
        assertThat(DocFacts.stackDefaults(md("The pods fall back to their default (HikariCP's 10, Agroal's 20).", "",
                "Before: 10 for HikariCP, 50 for Agroal, 10 for Gitea by default."))).hasSize(2);
        assertThat(DocFacts.ownNamesDefault(md("Set `appDefaultPoolSize` where it is not 20."))).hasSize(1);
        assertThat(DocFacts.presetVariables(md("Quarkus reads `QUARKUS_DATASOURCE_JDBC_MAXSIZE`."))).hasSize(1);
        assertThat(DocFacts.yamlComments(md("```yaml", "injection:",
                "  preset: spring-boot-hikari   # or quarkus-agroal, hikari-env", "  resize: Live",
                "  preset: keycloak   # KC_DB_POOL_MAX, ..._MIN_SIZE", "```"))).hasSize(2);
        assertThat(DocFacts.servers(md("- **PostgreSQL only.** The `jdbcUrl` must start with `jdbc:postgresql:`.", "",
                "Observe reads the database (PostgreSQL or MariaDB)."))).hasSize(3);
    }

    private static List<DocUnits> md(String... lines) {
        return DocUnits.parse(Path.of("t.md"), List.of(lines));
    }
}
