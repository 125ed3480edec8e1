package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.poolbudget.status.Conditions;
import io.poolbudget.status.StatusAggregator;

import static io.poolbudget.decide.PolicyPassTest.SPEC;
import static io.poolbudget.decide.PolicyPassTest.policy;
import static io.poolbudget.decide.PolicyPassTest.web;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 20: every problem a policy reports names the object at fault. PolicyEvents sends each problem condition's
 * message as its Warning Event (one per start), so what holds for the condition holds for the Event. A failed pass
 * (ReconcileError) names the exception and is tested in the reconciler's ITs; the database's own count
 * (ObservedOverBudget, ObservationFailing) in ObservedAggregatorTest.
 */
class ProblemReasonsTest {
    private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
    private static final String SIZE = new Owner("db").sizeAnnotation();

    private static Pod pod(String name, int size, boolean terminating, boolean crashing) {
        var b = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns")
                .withLabels(Map.of("app", "web", Owner.SIZED_LABEL, "true")).endMetadata()
                .withNewSpec().addNewContainer().withName("app").withEnv(new EnvVarBuilder()
                        .withName("HIKARI_MAXIMUM_POOL_SIZE").withValue(Integer.toString(size)).build())
                .endContainer()
                .endSpec();
        if (terminating) {
            b.editMetadata().withDeletionTimestamp("2026-01-01T10:00:30Z").endMetadata();
        }
        if (crashing) {
            b.withNewStatus().withContainerStatuses(new ContainerStatusBuilder().withName("app").withReady(false)
                    .withRestartCount(4).withNewState().withNewWaiting().withReason("CrashLoopBackOff").endWaiting()
                    .endState().build()).endStatus();
        }
        return b.build();
    }

    /** web as the operator left it with {@code size} in its template; {@code rolledOut} false: 1 of 2 pods updated. */
    private static Deployment sized(int size, boolean rolledOut) {
        Deployment d = web(size);
        d.getSpec().getTemplate().getMetadata().setAnnotations(Map.of(SIZE, Integer.toString(size)));
        d.getSpec().getTemplate().getMetadata().setLabels(Map.of(Owner.SIZED_LABEL, "true"));
        if (!rolledOut) {
            d.getStatus().setUpdatedReplicas(1);
        }
        return d;
    }

    private static ClusterView view(Deployment d, Pod... pods) {
        return new ClusterView(List.of(d), List.of(), List.of(), List.of(pods), List.of());
    }

    private static List<Condition> problems(PoolPolicy p, ClusterView view, PoolPolicy... others) {
        var neighbours = new ArrayList<>(List.of(others));
        neighbours.add(p);
        var result = Passes.run(p, view, neighbours, new PolicyPassTest.RecordingWriter(), NOW, Duration.ofMinutes(3));
        PoolPolicyStatus status = new StatusAggregator(Clock.fixed(NOW, ZoneOffset.UTC)).status(p, result);
        return status.getConditions().stream().filter(c -> Conditions.READY.equals(c.getType())
                ? Conditions.FALSE.equals(c.getStatus())
                : !Conditions.ROLLOUT_IN_PROGRESS.equals(c.getType()) && Conditions.TRUE.equals(c.getStatus()))
                .toList();
    }

    static Stream<Arguments> everyReason() {
        var other = policy("other", """
                database: {cores: 8}
                injection: {preset: hikari-env}
                targets: [{selector: {matchLabels: {tier: web}}}]
                """);
        Deployment paused = sized(4, false);
        paused.getSpec().setPaused(true);
        return Stream.of(
                Arguments.of("InvalidSpec", policy("db", SPEC.replace("cores: 8", "cores: 8, budget: 3000000000")),
                        view(web(null)), List.of(), "spec.database.budget"),
                Arguments.of("Oversubscribed", policy("db", SPEC.replace("cores: 8", "cores: 1, budget: 2")),
                        view(web(null)), List.of(), "the most is Deployment/web"),
                Arguments.of("Conflict", policy("db", SPEC), view(web(null)), List.of(other),
                        "also claimed by PoolPolicy other"),
                Arguments.of("TargetProblem", policy("db", SPEC.replace("{name: web}", "{name: gone}")),
                        view(web(null)), List.of(), "Deployment/gone (NotFound"),
                Arguments.of("TargetProblem",
                        policy("db", SPEC.replace("hikari-env}", "hikari-env, containers: [sidecar]}")),
                        view(web(null)), List.of(),
                        "Deployment/web (Invalid: spec.injection.containers names 'sidecar'"),
                Arguments.of("TargetProblem", policy("db", SPEC), view(paused, pod("web-1", 4, false, false)),
                        List.of(),
                        "Deployment/web (Paused"),
                Arguments.of("TargetProblem", policy("db", SPEC), view(sized(4, false), pod("web-1", 4, false, true)),
                        List.of(), "Deployment/web (Stalled: pool size 4 has not taken effect: its new pod web-1"),
                Arguments.of("LiveOverBudget", policy("db", SPEC), view(sized(4, false), pod("web-0", 10, true, false),
                        pod("web-1", 10, false, false), pod("web-2", 4, false, false)), List.of(),
                        "in progress: Deployment/web"),
                Arguments.of("LiveOverBudget", policy("db", SPEC), view(sized(4, true), pod("web-0", 4, false, false),
                        pod("web-1", 4, false, false), pod("web-2", 4, false, false), pod("web-3", 4, false, false),
                        pod("web-4", 4, false, false)), List.of(),
                        "Deployment/web runs 5 pods of its 4 peak pods and holds 20 of its 16 connections"));
    }

    @ParameterizedTest(name = "{0}: {4}")
    @MethodSource("everyReason")
    void everyProblemNamesTheObjectAtFault(String reason, PoolPolicy p, ClusterView view, List<PoolPolicy> others,
            String names) {
        var problems = problems(p, view, others.toArray(PoolPolicy[]::new));
        // the reason under test names its object; any other problem the same pass reports names its own
        assertThat(problems).as("problem conditions").anySatisfy(c -> {
            assertThat(c.getReason()).isEqualTo(reason);
            assertThat(c.getMessage()).contains(names);
        }).allSatisfy(c -> assertThat(c.getMessage()).as(c.getType() + "/" + c.getReason())
                .containsPattern("Deployment/[a-z]|PoolPolicy [a-z]|spec\\.[a-z]"));
    }
}
