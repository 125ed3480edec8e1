package io.poolbudget.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.status.Observation;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The observation's timer survives what it did not expect: JOSDK's poll would stop for good at an exception. */
class ObservationSourceTest {
    @Test
    void anUnexpectedExceptionIsAFailedReadingAndTheNextReadIsTaken() {
        var policy = new PoolPolicy();
        policy.setMetadata(new ObjectMetaBuilder().withNamespace("shop").withName("db").build());
        Observation failed = ObservationSource.guarded(policy, () -> {
            throw new IllegalArgumentException("Illegal character in authority at index 18");
        });
        assertThat(failed.failure()).isNotNull();
        assertThat(failed.failure().reason()).isEqualTo("ReadFailed");
        assertThat(failed.failure().message()).contains("Illegal character in authority", "jdbcUrl");
        assertThat(ObservationSource.guarded(policy, () -> {
            throw new NullPointerException();
        }).failure().message()).contains("NullPointerException");
        Observation read = Observation.of(100, 3, Map.of("10.0.0.1", 2L), "database shop");
        assertThat(ObservationSource.guarded(policy, () -> read)).isSameAs(read);
    }
}
