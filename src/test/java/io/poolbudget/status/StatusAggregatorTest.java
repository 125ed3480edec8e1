package io.poolbudget.status;

import io.poolbudget.decide.PassResult;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.planning.InvalidPolicyException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusAggregatorTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static PoolPolicy policy(long generation) {
        var p = new PoolPolicy();
        p.setMetadata(new ObjectMetaBuilder().withName("p").withNamespace("ns").withGeneration(generation).build());
        return p;
    }

    private static StatusAggregator at(Instant t) {
        return new StatusAggregator(Clock.fixed(t, ZoneOffset.UTC));
    }

    private static PassResult invalid() {
        return PassResult.invalid(new InvalidPolicyException("spec.database.cores", "must be at least 1, got 0"));
    }

    @Test
    void anInvalidSpecIsNotReadyAndNamesTheField() {
        var status = at(T0).status(policy(3), invalid());
        assertThat(status.getObservedGeneration()).isEqualTo(3L);
        assertThat(status.getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("InvalidSpec");
            assertThat(c.getMessage()).isEqualTo("spec.database.cores must be at least 1, got 0");
            assertThat(c.getObservedGeneration()).isEqualTo(3L);
            assertThat(c.getLastTransitionTime()).isEqualTo("2026-01-01T10:00:00Z");
        });
    }

    @Test
    void anUnchangedPassKeepsTheTransitionTimeSoTheStatusIsEqual() {
        var p = policy(1);
        p.setStatus(at(T0).status(p, invalid()));
        var later = at(T0.plusSeconds(3600)).status(p, invalid());
        assertThat((Object) JSON.valueToTree(later)).isEqualTo(JSON.valueToTree(p.getStatus()));
    }

    @Test
    void aNewGenerationChangesTheStatusButNotTheTransitionTime() {
        var p = policy(1);
        p.setStatus(at(T0).status(p, invalid()));
        p.getMetadata().setGeneration(2L);
        var next = at(T0.plusSeconds(60)).status(p, invalid());
        assertThat((Object) JSON.valueToTree(next)).isNotEqualTo(JSON.valueToTree(p.getStatus()));
        assertThat(next.getObservedGeneration()).isEqualTo(2L);
        assertThat(next.getConditions().get(0).getLastTransitionTime()).isEqualTo("2026-01-01T10:00:00Z");
    }

    @Test
    void aFlippedStatusGetsANewTransitionTime() {
        List<Condition> previous = List.of(Conditions.carry(null, "Ready", "False", "Broken", "m", 1,
                Clock.fixed(T0, ZoneOffset.UTC)));
        var flipped = Conditions.carry(previous, "Ready", "True", "Reconciled", "m", 1,
                Clock.fixed(T0.plusSeconds(5), ZoneOffset.UTC));
        assertThat(flipped.getLastTransitionTime()).isEqualTo("2026-01-01T10:00:05Z");
    }
}
