package io.poolbudget.decide;

import io.poolbudget.status.Conditions;
import io.poolbudget.status.StatusAggregator;
import io.poolbudget.write.WorkloadWriter;

import static io.poolbudget.decide.PolicyPassTest.SPEC;
import static io.poolbudget.decide.PolicyPassTest.policy;
import static io.poolbudget.decide.PolicyPassTest.view;
import static io.poolbudget.decide.PolicyPassTest.web;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.decide.PolicyPass.State;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The status a pass announces as its writes go out (PolicyPass.Announcer): what it says, that it goes out before the
 * writes return, and where there is none.
 */
class AnnouncedStatusTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");

    /** Holds every write until the pass has announced (at most {@code holdMillis}), then answers {@code conflict} (null: written). */
    static final class HeldWriter implements WorkloadWriter {
        final CountDownLatch announced = new CountDownLatch(1);
        final List<String> log = new ArrayList<>();
        String conflict;
        long holdMillis = 5000;

        @Override
        public String apply(String fieldManager, HasMetadata partial) {
            try {
                boolean first = announced.await(holdMillis, TimeUnit.MILLISECONDS);
                synchronized (log) {
                    log.add((first ? "announced, then " : "never announced, ") + "wrote " + partial.getMetadata().getName());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return conflict;
        }


        @Override
        public void deleteConfigMap(String namespace, String name) {
        }
    }

    private final List<PolicyPass.Result> announcements = new ArrayList<>();

    private PolicyPass.Result run(PoolPolicy p, ClusterView view, HeldWriter writer) {
        return PolicyPass.run(p, view, List.of(p), null, writer, NOW, Duration.ofMinutes(3), writing -> {
            announcements.add(writing);
            writer.announced.countDown();
        });
    }

    private static PoolPolicyStatus status(PoolPolicy p, PolicyPass.Result r) {
        return new StatusAggregator(Clock.fixed(NOW, ZoneOffset.UTC)).status(p, r);
    }

    @Test
    void aNewSizeIsAnnouncedWhileItIsBeingWrittenWithTheSizeTheTemplateStillHas() {
        var writer = new HeldWriter();
        var p = policy("db", SPEC);
        var result = run(p, view(web(6)), writer);   // the plan gives 4: a shrink, written at once

        assertThat(writer.log).containsExactly("announced, then wrote web");
        assertThat(announcements).singleElement().satisfies(a -> {
            assertThat(a.targets()).singleElement().satisfies(t -> {
                assertThat(t.state()).isEqualTo(State.Rolling);
                assertThat(t.applied()).as("the template still has the old size").isEqualTo(6);
                assertThat(t.message()).startsWith("writing pool size 4: ");
                assertThat(t.wrote()).isFalse();
            });
            var s = status(p, a);
            assertThat(s.getTargets()).singleElement().satisfies(t -> {
                assertThat(t.getPoolSize()).isEqualTo(4);
                assertThat(t.getAppliedPoolSize()).isEqualTo(6);
                assertThat(t.getBasisReplicas()).isEqualTo(2);
            });
            assertThat(s.getConditions()).filteredOn(c -> c.getType().equals(Conditions.READY))
                    .singleElement().satisfies(c -> assertThat(c.getStatus()).isEqualTo("True"));
        });
        assertThat(result.targets()).singleElement().satisfies(t -> {
            assertThat(t.state()).isEqualTo(State.Rolling);
            assertThat(t.applied()).isEqualTo(4);
            assertThat(t.wrote()).isTrue();
        });
    }

    @Test
    void aWriteThatFailsIsReportedAfterItsAnnouncement() {
        var writer = new HeldWriter();
        writer.conflict = "Apply failed with 1 conflict: conflict with \"helm\": .spec.template.spec.containers[name=\"app\"].env";
        var result = run(policy("db", SPEC), view(web(6)), writer);
        assertThat(announcements).singleElement()
                .satisfies(a -> assertThat(a.targets().get(0).state()).isEqualTo(State.Rolling));
        assertThat(result.targets().get(0).state()).isEqualTo(State.Conflict);
    }

    @Test
    void nothingIsAnnouncedWhereNothingIsWritten() {
        run(policy("db", SPEC), view(web(4)), new HeldWriter());                    // settled
        run(policy("db", "dryRun: true\n" + SPEC), view(web(null)), new HeldWriter()); // a dry run
        assertThat(announcements).isEmpty();
    }

    @Test
    void aWriteThatFailedLastTimeIsNotAnnouncedAsUnderWayAgain() {
        var p = policy("db", SPEC);
        p.setStatus(Serialization.unmarshal("""
                targets: [{kind: Deployment, name: web, state: Conflict, poolSize: 4, message: "conflict with helm"}]
                """, PoolPolicyStatus.class));
        var writer = new HeldWriter();
        writer.conflict = "conflict with helm";
        writer.holdMillis = 300;
        var result = run(p, view(web(6)), writer);
        assertThat(announcements).isEmpty();
        assertThat(writer.log).containsExactly("never announced, wrote web");
        assertThat(result.targets().get(0).state()).isEqualTo(State.Conflict);
    }
}
