package io.poolbudget.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poolbudget.ledger.Evidence.Kind;
import org.junit.jupiter.api.Test;

class EvidenceTest {
    @Test
    void aRowsEvidenceReadsBackAsWritten() {
        for (Evidence e : new Evidence[]{new Evidence(Kind.ClientCIDR, "10.88.0.0/16"),
                new Evidence(Kind.ClientCIDR, "fd00::/8"), new Evidence(Kind.ApplicationNamePrefix, "eu-2-"),
                new Evidence(Kind.User, "app_eu2")}) {
            assertThat(Evidence.parse(e.describe())).isEqualTo(e);
        }
    }

    @Test
    void evidenceThatIsNotOursReadsAsNoneSoItsClaimIsKept() {
        assertThat(Evidence.parse(null)).isNull();
        assertThat(Evidence.parse("ClientCIDR")).isNull();
        assertThat(Evidence.parse("Hostname eu-2")).isNull();
        assertThat(Evidence.parse("ClientCIDR 10.88.0.1")).isNull();
        assertThat(Evidence.parse("User a b")).isNull();
    }

    @Test
    void aBadValueIsNamed() {
        assertThatThrownBy(() -> new Evidence(Kind.ClientCIDR, "10.88.0.0")).hasMessage(
                "ClientCIDR 10.88.0.0 is not an address range such as 10.88.0.0/16");
        assertThatThrownBy(() -> new Evidence(Kind.User, " ")).hasMessageContaining("needs a kind and a value");
    }
}
