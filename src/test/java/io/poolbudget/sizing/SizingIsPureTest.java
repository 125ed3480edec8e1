package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The sizing engine stays plain Java: no Kubernetes client or model, no Quarkus, no operator code. */
class SizingIsPureTest {
    private static final List<String> FORBIDDEN = List.of("io.fabric8", "io.quarkus", "io.javaoperatorsdk", "jakarta.",
            "io.poolbudget.api", "io.poolbudget.planning", "io.poolbudget.reconciler", "io.poolbudget.cli");

    @Test
    void importsNothingButTheJdk() throws IOException {
        Path sources = Path.of("src/main/java/io/poolbudget/sizing");
        try (Stream<Path> files = Files.list(sources)) {
            List<Path> java = files.filter(f -> f.toString().endsWith(".java")).toList();
            assertThat(java).hasSizeGreaterThan(5);
            for (Path file : java) {
                for (String line : Files.readAllLines(file)) {
                    if (line.startsWith("import ")) {
                        assertThat(FORBIDDEN).as(file + ": " + line).noneMatch(line::contains);
                    }
                }
            }
        }
    }
}
