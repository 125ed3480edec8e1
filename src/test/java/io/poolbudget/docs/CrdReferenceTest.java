package io.poolbudget.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/reference/crds.md is what {@link CrdReference} renders from the committed CRDs: it drifts when a CRD changes
 * (hack/update-crds.sh regenerates both). With -Dpoolbudget.update-docs=true it writes the page instead.
 */
class CrdReferenceTest {
    private static final Path PAGE = Path.of("docs/reference/crds.md");

    @Test
    void theReferenceIsRenderedFromTheCommittedCrds() throws IOException {
        String rendered = CrdReference.render(Path.of("crds"));
        if (Boolean.getBoolean("poolbudget.update-docs")) {
            Files.writeString(PAGE, rendered);
        }
        assertThat(rendered).contains("## PoolPolicy", "## DatabaseBudget", "`spec.targets[].minPoolSize`");
        assertThat(Files.exists(PAGE) ? Files.readString(PAGE) : "").as(PAGE + " is not what the CRDs give: run "
                + "hack/update-crds.sh (or this test with -Dpoolbudget.update-docs=true) and commit it")
                .isEqualTo(rendered);
    }
}
