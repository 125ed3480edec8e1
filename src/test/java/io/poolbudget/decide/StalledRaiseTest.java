package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.poolbudget.status.StatusAggregator;

import static io.poolbudget.decide.PolicyPassTest.policy;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.poolbudget.decide.TargetOutcome.State;
import io.poolbudget.decide.PolicyPassTest.RecordingWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 41, found 1: an app that cannot start on a pool of 1 (Keycloak takes a second connection while it holds one).
 * Budget 12 -> 8 at 3 replicas planned 1 per pod; the new pod crash-loops, the old pods keep 2. With the budget back
 * at 12 the plan is 2 again, what the old pods hold: the write must go out at once, not wait for the window and then
 * for the very rollout only it can end.
 */
class StalledRaiseTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final Duration WINDOW = Duration.ofMinutes(3);
    /** 3 replicas + 1 surge + 1 terminating = 5 peak pods: budget 12 -> 2 per pod, 16 -> 3. */
    private static final String SPEC = """
            database: {budget: %d}
            injection: {preset: hikari-env}
            targets: [{name: kc}]
            """;

    /** kc mid-rollout to pool size 1: three old pods at 2 (Ready), one new pod at 1 that crash-loops. */
    private static ClusterView stalledAtOne() {
        return new ClusterView(List.of(kc(1, 4, 1)), List.of(), List.of(), List.of(pod("kc-a-0", 2, "a", false),
                pod("kc-a-1", 2, "a", false), pod("kc-a-2", 2, "a", false), pod("kc-b-0", 1, "b", true)), List.of(),
                new SettledWorkloads(), NOW);
    }

    /** kc, 3 replicas, with pool size {@code size} in its template; its status counts {@code updated} of {@code pods}. */
    private static Deployment kc(int size, int pods, int updated) {
        return SizedWorkloads.deployment(new Owner("db"), "kc", 3, size, pods, updated, 3);
    }

    private static Pod pod(String name, int size, String hash, boolean crashLooping) {
        var pod = SizedWorkloads.pod(new Owner("db"), "kc", name, size, hash);
        if (crashLooping) {
            pod.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withContainerStatuses(
                    new ContainerStatusBuilder().withName("app").withReady(false).withRestartCount(3).withNewState()
                            .withNewWaiting().withReason("CrashLoopBackOff").endWaiting().endState().build())
                    .build());
        }
        return pod;
    }

    private static PassResult run(int budget, RecordingWriter writer, Instant pendingSince) {
        var p = policy("db", SPEC.formatted(budget));
        if (pendingSince != null) {
            var status = new io.poolbudget.api.v1alpha1.PoolPolicyStatus();
            var t = new io.poolbudget.api.v1alpha1.TargetStatus();
            t.setKind("Deployment");
            t.setName("kc");
            t.setPendingSince(pendingSince.toString());
            status.setTargets(List.of(t));
            p.setStatus(status);
        }
        return Passes.run(p, stalledAtOne(), List.of(p), writer, NOW, WINDOW);
    }

    /** The pass wrote kc, and only kc, with pool size {@code size}. */
    private static void assertWrote(RecordingWriter writer, int size) {
        assertThat(writer.log).containsExactly("apply Deployment/kc as poolbudget/db");
        var patch = (Deployment) writer.applied.get(0);
        assertThat(patch.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .extracting(e -> e.getName() + "=" + e.getValue()).contains("HIKARI_MAXIMUM_POOL_SIZE=" + size);
    }

    @Test
    void theSizeItsRunningPodsHoldIsWrittenAtOnce() {
        var writer = new RecordingWriter();
        var result = run(12, writer, null);
        assertWrote(writer, 2);
        assertThat(result.targets()).singleElement().satisfies(t -> {
            assertThat(t.state()).isEqualTo(State.Rolling);
            assertThat(t.pendingSince()).isNull();
            assertThat(t.message()).isEqualTo("raise 1 → 2 goes back toward the 2 its running pods hold, so it adds no "
                    + "connections, and only a write can end its stalled rollout: applies now");
        });
        assertThat(result.requeue()).as("nothing waits for the window").isNull();
    }

    @Test
    void aRaisePastWhatItsPodsHoldWritesWhatTheyHoldAtOnceAndTheRestAfterTheWindow() {
        // issue 53, found 3: with the budget back the raise 1 -> 3 waited 180 s, though its running pods held 2 each;
        // 2 adds no connections (every pod, old or new, at 2 at most: 5 peak pods × 2 = 10 of 16) and ends the stall
        var writer = new RecordingWriter();
        var step = run(16, writer, null);
        assertWrote(writer, 2);
        assertThat(step.targets()).singleElement().satisfies(t -> {
            assertThat(t.state()).isEqualTo(State.Rolling);
            assertThat(t.applied()).isEqualTo(2);
            assertThat(t.pendingSince()).as("the rest's window counts from now").isEqualTo(NOW);
            assertThat(t.message()).isEqualTo("raise 1 → 3: its running pods hold 2 already, so 2 adds no "
                    + "connections and is written now; the rest, 2 → 3, waits for the stabilisation window until "
                    + "2026-01-01T10:03:00Z");
        });
        assertThat(step.requeue()).as("looked at again when the window is over").isEqualTo(WINDOW);

        // once the window is over, the whole raise goes out: it does not wait for its own stalled rollout
        var after = new RecordingWriter();
        var written = run(16, after, NOW.minus(WINDOW));
        assertThat(after.log).containsExactly("apply Deployment/kc as poolbudget/db");
        assertThat(written.targets().get(0).message()).isEqualTo("raise 1 → 3 applies now");
    }

    @Test
    void theRestOfTheRaiseWaitsForTheWindowAndTheStepsRollout() {
        var p = policy("db", SPEC.formatted(16));
        var status = new StatusAggregator(Clock.fixed(NOW, ZoneOffset.UTC)).status(p, run(16, new RecordingWriter(),
                null));
        p.setStatus(status);
        // the step rolled back to the old pods' template: 3 pods at 2
        var atTwo = new ClusterView(List.of(kc(2, 3, 3)), List.of(), List.of(), List.of(pod("kc-a-0", 2, "a", false),
                pod("kc-a-1", 2, "a", false), pod("kc-a-2", 2, "a", false)), List.of(), new SettledWorkloads(), NOW);
        var writer = new RecordingWriter();
        var held = Passes.run(p, atTwo, List.of(p), writer, NOW.plusSeconds(60), WINDOW);
        assertThat(writer.applied).isEmpty();
        assertThat(held.targets()).singleElement().satisfies(t -> {
            assertThat(t.state()).isEqualTo(State.Pending);
            assertThat(t.pendingSince()).isEqualTo(NOW);
            assertThat(t.message()).isEqualTo("raise 2 → 3 waits for the stabilisation window until "
                    + "2026-01-01T10:03:00Z");
        });
        // its own rollout to 2 still in progress when the window is over: the rest waits for it
        var rolling = new ClusterView(List.of(kc(2, 4, 2)), List.of(), List.of(), List.of(pod("kc-a-0", 2, "a",
                false), pod("kc-a-1", 2, "a", false), pod("kc-b-0", 1, "b", false)), List.of(),
                new SettledWorkloads(), NOW);
        var waiting = Passes.run(p, rolling, List.of(p), writer, NOW.plus(WINDOW), WINDOW);
        assertThat(writer.applied).isEmpty();
        assertThat(waiting.targets().get(0).message()).isEqualTo("raise 2 → 3 waits until these finish rolling "
                + "out: Deployment/kc (rolling out)");
        Passes.run(p, atTwo, List.of(p), writer, NOW.plus(WINDOW), WINDOW);
        assertWrote(writer, 3);
    }

    @Test
    void aStallWithNothingToRaiseSaysWhatFixesIt() {
        var writer = new RecordingWriter();
        var result = run(8, writer, null); // 8 / 5 -> 1: the size it carries
        assertThat(writer.applied).isEmpty();
        assertThat(result.targets().get(0).state()).isEqualTo(State.Stalled);
        var status = new StatusAggregator(Clock.fixed(NOW, ZoneOffset.UTC)).status(policy("db", SPEC.formatted(8)),
                result);
        assertThat(status.getConditions()).filteredOn(c -> c.getType().equals("Ready")).singleElement().satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("TargetProblem");
            assertThat(c.getMessage()).startsWith("Deployment/kc (Stalled: pool size 1 has not taken effect");
        });
        assertThat(status.getTargetStates()).containsExactly(Map.entry("Stalled", 1));
        assertThat(result.targets().get(0).message())
                .contains("set spec.targets[0].minPoolSize: 2 or give the database "
                        + "more budget")
                .endsWith("; raises that wait for it keep waiting. Fix the workload (kubectl rollout "
                        + "status/undo deployment/kc) or the policy");
    }
}
