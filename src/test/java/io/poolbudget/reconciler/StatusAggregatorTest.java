package io.poolbudget.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class StatusAggregatorTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    private static PoolPolicy policy(long generation) {
        var p = new PoolPolicy();
        p.setMetadata(new ObjectMetaBuilder().withName("p").withNamespace("ns").withGeneration(generation).build());
        return p;
    }

    @Test
    void firstPassIsReadyAtTheCurrentGeneration() {
        var status = new StatusAggregator(Clock.fixed(T0, ZoneOffset.UTC)).reconciled(policy(3));
        assertThat(status.getObservedGeneration()).isEqualTo(3L);
        assertThat(status.getConditions()).singleElement().satisfies(c -> {
            assertThat(c.getType()).isEqualTo("Ready");
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getObservedGeneration()).isEqualTo(3L);
            assertThat(c.getLastTransitionTime()).isEqualTo("2026-01-01T10:00:00Z");
        });
    }

    @Test
    void unchangedPassKeepsTheTransitionTimeSoTheStatusIsEqual() {
        var p = policy(1);
        p.setStatus(new StatusAggregator(Clock.fixed(T0, ZoneOffset.UTC)).reconciled(p));
        var later = new StatusAggregator(Clock.fixed(T0.plusSeconds(3600), ZoneOffset.UTC)).reconciled(p);
        assertThat(later).isEqualTo(p.getStatus());
    }

    @Test
    void newGenerationChangesTheStatusButNotTheTransitionTime() {
        var p = policy(1);
        p.setStatus(new StatusAggregator(Clock.fixed(T0, ZoneOffset.UTC)).reconciled(p));
        p.getMetadata().setGeneration(2L);
        var next = new StatusAggregator(Clock.fixed(T0.plusSeconds(60), ZoneOffset.UTC)).reconciled(p);
        assertThat(next).isNotEqualTo(p.getStatus());
        assertThat(next.getObservedGeneration()).isEqualTo(2L);
        assertThat(next.getConditions().get(0).getLastTransitionTime()).isEqualTo("2026-01-01T10:00:00Z");
    }

    @Test
    void flippedStatusGetsANewTransitionTime() {
        var previous = java.util.List.of(Conditions.carry(null, "Ready", "False", "Broken", "m", 1, Clock.fixed(T0, ZoneOffset.UTC)));
        var flipped = Conditions.carry(previous, "Ready", "True", "Reconciled", "m", 1,
                Clock.fixed(T0.plusSeconds(5), ZoneOffset.UTC));
        assertThat(flipped.getLastTransitionTime()).isEqualTo("2026-01-01T10:00:05Z");
    }
}
