package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The CRDs users install (crds/, the Helm chart) must be exactly what this build generates.
 * An IT because the CRD is generated at package time, after the unit tests; it needs no cluster.
 */
class CrdDriftIT {
    private static final String FIX = "the committed CRDs in crds/ differ from the build's output. "
            + "If the API change is intended, run hack/update-crds.sh and commit the result.";

    @Test
    void committedCrdsMatchTheBuild() throws IOException {
        Path generated = Path.of(System.getProperty("poolbudget.generated.crds", "target/kubernetes"));
        Path committed = ClusterFixture.committedCrds();
        try (Stream<Path> files = Files.list(generated)) {
            var crds = files.filter(f -> f.getFileName().toString().contains(".poolbudget.io-")).sorted().toList();
            assertThat(crds).as("CRDs generated into " + generated).isNotEmpty();
            for (Path crd : crds) {
                Path mine = committed.resolve(crd.getFileName());
                assertThat(mine).as(FIX + " (missing " + mine + ")").exists();
                assertThat(Files.readString(mine)).as(FIX + " (" + mine + ")").isEqualTo(Files.readString(crd));
            }
        }
        try (Stream<Path> files = Files.list(committed)) {
            files.forEach(f -> assertThat(generated.resolve(f.getFileName()))
                    .as(FIX + " (" + f + " is no longer generated)").exists());
        }
    }
}
