package io.poolbudget;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core decides and builds status from data alone: what a policy is (api), the sizing engine, planning, the
 * decisions of a pass (decide) and its status (status) import no Kubernetes client, no operator framework, no Quarkus,
 * and none of the operator's packages (the controllers, the caches, the writes, the memory, observe, config, metrics,
 * web, cli, ledger). Only the custom resources may extend the client's CustomResource, the model base of a CRD.
 */
class CoreIsClientFreeTest {
    private static final List<String> CORE = List.of("api", "sizing", "planning", "decide", "status");
    private static final List<String> FORBIDDEN = List.of("io.fabric8.kubernetes.client", "io.javaoperatorsdk",
            "io.quarkus", "io.quarkiverse", "io.vertx", "jakarta.", "io.micrometer", "com.zaxxer", "java.sql",
            "io.poolbudget.controller", "io.poolbudget.cache", "io.poolbudget.write", "io.poolbudget.memory",
            "io.poolbudget.observe", "io.poolbudget.config", "io.poolbudget.metrics", "io.poolbudget.web",
            "io.poolbudget.cli", "io.poolbudget.ledger");
    private static final String CRD_BASE = "import io.fabric8.kubernetes.client.CustomResource;";

    @Test
    void theCoreImportsNoClientNorOperatorCode() throws IOException {
        int files = 0;
        for (String pkg : CORE) {
            try (Stream<Path> tree = Files.walk(Path.of("src/main/java/io/poolbudget", pkg))) {
                for (Path file : tree.filter(f -> f.toString().endsWith(".java")).toList()) {
                    files++;
                    for (String line : Files.readAllLines(file)) {
                        if (line.startsWith("import ") && !line.equals(CRD_BASE)) {
                            assertThat(FORBIDDEN).as(file + ": " + line).noneMatch(line::contains);
                        }
                    }
                }
            }
        }
        assertThat(files).as("core sources read").isGreaterThan(50);
    }
}
