package io.poolbudget.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.poolbudget.api.v1alpha1.BudgetStatus;
import io.poolbudget.api.v1alpha1.ObserveGroupBy;
import io.poolbudget.api.v1alpha1.ObserveSpec;
import io.poolbudget.api.v1alpha1.ObservedStatus.ObservedClient;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.api.v1alpha1.TargetStatus;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ObservedAggregatorTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-22T10:00:00Z"), ZoneOffset.UTC);
    private static final Map<String, Set<String>> PODS = Map.of("Deployment/api", Set.of("10.88.0.5", "10.88.0.6"),
            "Deployment/worker", Set.of("10.88.0.7"));

    @Test
    void connectionsAreAttributedToTargetsByTheirPodsAddresses() {
        var st = status(12, target("api", 6, 3), target("worker", 2, 2));
        apply(st, new Observation(100, 3, Map.of("10.88.0.5", 3L, "10.88.0.6", 3L, "10.88.0.7", 2L, "10.88.0.1", 1L),
                null));
        assertThat(st.getObserved().getConnections()).isEqualTo(9);
        assertThat(st.getObserved().getClients()).containsExactly(new ObservedClient("Deployment/api", 6),
                new ObservedClient("Deployment/worker", 2), new ObservedClient("10.88.0.1", 1));
        assertThat(st.getTargets()).extracting(TargetStatus::getObservedConnections).containsExactly(6L, 2L);
        assertThat(condition(st, Conditions.OBSERVED_OVER_BUDGET).getStatus()).isEqualTo("False");
        assertThat(condition(st, Conditions.OBSERVATION_FAILING).getStatus()).isEqualTo("False");
    }

    @Test
    void anAppThatIgnoresTheVariableIsNamed() {
        var st = status(12, target("api", 6, 3), target("worker", 2, 2));
        apply(st, new Observation(100, 3, Map.of("10.88.0.5", 10L, "10.88.0.6", 10L, "10.88.0.7", 2L, "10.88.0.1", 1L),
                null));
        Condition c = condition(st, Conditions.OBSERVED_OVER_BUDGET);
        assertThat(c.getStatus()).isEqualTo("True");
        assertThat(c.getReason()).isEqualTo(Conditions.REASON_CONNECTIONS_OVER_BUDGET);
        assertThat(c.getMessage()).isEqualTo("the server holds 23 client connections, above the budget of 12; "
                + "Deployment/api: 20 from its pods, which declare 6 (pool size 3): does the app read the injected "
                + "variable?; not from a target: 10.88.0.1 1");
    }

    @Test
    void aServerThatCannotHoldTheBudgetSaysWhatToSet() {
        var st = status(120, target("api", 6, 3));
        apply(st, new Observation(100, 3, Map.of("10.88.0.5", 3L), null));
        Condition c = condition(st, Conditions.OBSERVED_OVER_BUDGET);
        assertThat(c.getReason()).isEqualTo(Conditions.REASON_CAPACITY_BELOW_BUDGET);
        assertThat(c.getMessage())
                .contains("the server's max_connections 100 − superuser_reserved_connections 3 = 97 is below the "
                        + "budget of 120", "database.maxConnections: 100");
    }

    @Test
    void aDatabaseScopeCountsItsOwnAndSaysWhoseEachNumberIs() {
        var st = status(10, target("api", 6, 3), target("worker", 2, 2));
        apply(st, Observation.of(100, 3, Map.of("10.88.0.5", 3L, "10.88.0.6", 3L), "database orders"));
        assertThat(st.getObserved().getScope()).isEqualTo("database orders");
        assertThat(st.getObserved().getConnections()).isEqualTo(6);
        assertThat(condition(st, Conditions.OBSERVED_OVER_BUDGET)).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getMessage()).isEqualTo("database orders holds 6 client connections, within the budget of 10");
        });
        assertThat(condition(st, Conditions.OBSERVATION_FAILING).getMessage()).isEqualTo("the server's client "
                + "connections are read every 30 s, those of database orders counted");

        apply(st, Observation.of(100, 3, Map.of("10.88.0.5", 3L, "10.88.0.6", 3L, "10.88.0.9", 5L), "user app"));
        assertThat(condition(st, Conditions.OBSERVED_OVER_BUDGET)).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getMessage()).isEqualTo("user app holds 11 client connections, above the budget of 10; "
                    + "not from a target: 10.88.0.9 5");
        });

        var slice = status(120, target("api", 6, 3)); // a slice larger than the whole server
        apply(slice, Observation.of(100, 3, Map.of("10.88.0.5", 3L), "database orders"));
        assertThat(condition(slice, Conditions.OBSERVED_OVER_BUDGET).getMessage()).startsWith("the server's "
                + "max_connections 100 − superuser_reserved_connections 3 = 97 is below the budget of 120");
    }

    @Test
    void aDatabaseThatCannotBeReadIsAConditionAndNoFigures() {
        var st = status(12, target("api", 6, 3));
        apply(st, Observation.failed("LoginFailed", "the database refused the login (password authentication failed)"));
        assertThat(st.getObserved()).isNull();
        assertThat(condition(st, Conditions.OBSERVATION_FAILING)).satisfies(c -> {
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo("LoginFailed");
            assertThat(c.getMessage()).startsWith("Secret pg-monitor: the database refused the login");
        });
        assertThat(condition(st, Conditions.OBSERVED_OVER_BUDGET).getStatus()).isEqualTo("Unknown");
        var first = status(12, target("api", 6, 3));
        apply(first, null);
        assertThat(condition(first, Conditions.OBSERVATION_FAILING).getStatus()).isEqualTo("Unknown");
    }

    @Test
    void byApplicationNameTheClientsAreTheNamesAndTenAreListed() {
        var st = status(1000, target("api", 6, 3));
        Map<String, Long> byName = new TreeMap<>();
        for (int i = 0; i < 13; i++) {
            byName.put("app-" + (char) ('a' + i), (long) (20 - i));
        }
        apply(st, new Observation(2000, 3, byName, null), ObserveGroupBy.ApplicationName);
        assertThat(st.getObserved().getClients()).hasSize(11).first().isEqualTo(new ObservedClient("app-a", 20));
        assertThat(st.getObserved().getClients().get(10)).isEqualTo(new ObservedClient("other", 8 + 9 + 10));
        assertThat(st.getTargets().get(0).getObservedConnections()).isNull();
    }

    @Test
    void ghostsAreNamedWithAStableSinceAndCountAgainstTheBudget() {
        Instant since = Instant.parse("2026-11-22T09:58:30.123Z");
        var read = new Observation(100, 3, Map.of("10.88.0.5", 3L, "10.88.0.6", 3L, "10.88.0.7", 2L, "10.88.0.9", 5L),
                null).withGhosts(List.of(new Observation.Ghost("10.88.0.9", 5, since, "shop/api-1 (Deployment/api)")),
                        "set tcp_keepalives_idle");
        var st = status(12, target("api", 6, 3), target("worker", 2, 2));
        apply(st, read);
        assertThat(st.getObserved().getGhostConnections()).isEqualTo(5);
        assertThat(st.getObserved().getGhostAddresses()).isEqualTo(1);
        assertThat(st.getObserved().getGhosts()).singleElement().satisfies(g -> {
            assertThat(g.getAddress()).isEqualTo("10.88.0.9");
            assertThat(g.getConnections()).isEqualTo(5);
            assertThat(g.getSince()).as("a time, not an age that moves every pass").isEqualTo("2026-11-22T09:58:30Z");
            assertThat(g.getLastPod()).isEqualTo("shop/api-1 (Deployment/api)");
        });
        Condition c = condition(st, Conditions.OBSERVED_OVER_BUDGET);
        assertThat(c.getStatus()).as("6 + 2 of the pods and 5 ghosts: 13 of 12").isEqualTo("True");
        assertThat(c.getMessage()).contains("not from a target: 10.88.0.9 5 (5 of them of pod shop/api-1 "
                + "(Deployment/api), gone since 2026-11-22T09:58:30Z: ghosts; see status.observed.ghosts)",
                "to end ghosts: set tcp_keepalives_idle");
        var again = status(12, target("api", 6, 3), target("worker", 2, 2));
        apply(again, read);
        assertThat(io.poolbudget.status.SameStatus.as(again, st)).as("an unchanged read writes nothing").isTrue();
    }

    @Test
    void withoutGhostsNothingIsSaidOfThem() {
        var st = status(12, target("api", 6, 3));
        apply(st, new Observation(100, 3, Map.of("10.88.0.5", 3L, "10.88.0.9", 5L), null));
        assertThat(st.getObserved().getGhosts()).isNull();
        assertThat(st.getObserved().getGhostConnections()).isNull();
        assertThat(condition(st, Conditions.OBSERVED_OVER_BUDGET).getMessage()).doesNotContain("ghost");
    }

    @Test
    void theGhostsListedAreBounded() {
        List<Observation.Ghost> many = new ArrayList<>();
        Map<String, Long> clients = new HashMap<>();
        for (int i = 0; i < 8; i++) {
            many.add(new Observation.Ghost("10.9.0." + i, i + 1, Instant.parse("2026-11-22T09:00:00Z"), "shop/p" + i
                    + " (Deployment/api)"));
            clients.put("10.9.0." + i, (long) i + 1);
        }
        var st = status(1000, target("api", 6, 3));
        apply(st, new Observation(2000, 3, clients, null).withGhosts(many, "fix"));
        assertThat(st.getObserved().getGhosts()).hasSize(ObservedAggregator.GHOSTS_LISTED).first()
                .satisfies(g -> assertThat(g.getAddress()).isEqualTo("10.9.0.7"));
        assertThat(st.getObserved().getGhostAddresses()).isEqualTo(8);
        assertThat(st.getObserved().getGhostConnections()).isEqualTo(36);
    }

    private static void apply(PoolPolicyStatus st, Observation o) {
        apply(st, o, ObserveGroupBy.ClientAddress);
    }

    private static void apply(PoolPolicyStatus st, Observation o, ObserveGroupBy groupBy) {
        st.getConditions().clear();
        var spec = new ObserveSpec();
        spec.setSecretName("pg-monitor");
        spec.setGroupBy(groupBy);
        ObservedAggregator.apply(st, spec, o, new HashMap<>(PODS), 1, null, 1, CLOCK);
    }

    private static Condition condition(PoolPolicyStatus st, String type) {
        return st.getConditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
    }

    private static TargetStatus target(String name, long live, int applied) {
        var t = new TargetStatus();
        t.setKind("Deployment");
        t.setName(name);
        t.setLiveConnections(live);
        t.setAppliedPoolSize(applied);
        return t;
    }

    private static PoolPolicyStatus status(long budget, TargetStatus... targets) {
        var st = new PoolPolicyStatus();
        st.setBudget(new BudgetStatus(budget, "formula", "x"));
        st.setTargets(new ArrayList<>(List.of(targets)));
        st.setConditions(new ArrayList<>());
        return st;
    }
}
