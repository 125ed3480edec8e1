package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.poolbudget.sizing.SharedBudget.Claimant;
import io.poolbudget.sizing.SharedBudget.Share;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class SharedBudgetTest {

    private static Budget budget(long connections) {
        return new Budget(connections, Budget.Term.FORMULA, "budget " + connections + " = the formula");
    }

    private static Map<String, Long> byPolicy(List<Share> shares) {
        return shares.stream().collect(Collectors.toMap(s -> s.namespace() + "/" + s.policy(), Share::connections));
    }

    @Test
    void namespacesSplitByTheirWeightsAndPoliciesOfOneNamespaceEqually() {
        var shares = SharedBudget.split(budget(18), List.of(new Claimant("team-a", "orders", 2),
                new Claimant("team-b", "billing", 1), new Claimant("team-b", "reports", 1)));
        // 18 × 2/3 = 12 for team-a; 6 for team-b, 3 + 3
        assertThat(byPolicy(shares)).containsExactlyInAnyOrderEntriesOf(
                Map.of("team-a/orders", 12L, "team-b/billing", 3L, "team-b/reports", 3L));
        assertThat(shares.get(1).explanation()).isEqualTo("3 of 18: namespace team-b weight 1 of 3 (2 namespaces) "
                + "→ 6, split equally between its 2 policies; where budget 18 = the formula");
    }

    @Test
    void theRemainderGoesToTheLargestFractionsThenByName() {
        // 10 × 1/3 = 3.33 each: one namespace gets the leftover connection, the first by name
        assertThat(byPolicy(SharedBudget.split(budget(10), List.of(new Claimant("c", "p", 1), new Claimant("a", "p", 1),
                new Claimant("b", "p", 1)))))
                .containsExactlyInAnyOrderEntriesOf(Map.of("a/p", 4L, "b/p", 3L, "c/p", 3L));
    }

    @Test
    void aNamespaceWithTwoWeightsIsAProgrammingError() {
        assertThatThrownBy(
                () -> SharedBudget.split(budget(10), List.of(new Claimant("a", "p", 1), new Claimant("a", "q", 2))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("namespace a");
    }

    @Property(tries = 500)
    void theSharesAddUpToTheBudgetExactlyInAnyOrder(@ForAll("claimants") List<Claimant> claimants,
            @ForAll @IntRange(min = 0, max = 1_000_000) int connections,
            @ForAll long seed) {
        var shares = SharedBudget.split(budget(connections), claimants);
        assertThat(shares.stream().mapToLong(Share::connections).sum())
                .isEqualTo(claimants.isEmpty() ? 0 : connections);
        assertThat(shares).allSatisfy(s -> assertThat(s.connections()).isNotNegative());
        var shuffled = new ArrayList<>(claimants);
        Collections.shuffle(shuffled, new Random(seed));
        assertThat(byPolicy(SharedBudget.split(budget(connections), shuffled))).isEqualTo(byPolicy(shares));
    }

    @Property(tries = 500)
    void moreClaimantsInOneNamespaceNeverChangeAnotherNamespacesShares(@ForAll("claimants") List<Claimant> claimants,
            @ForAll @IntRange(min = 0, max = 5000) int connections) {
        if (claimants.isEmpty()) {
            return;
        }
        Claimant first = claimants.get(0);
        var more = new ArrayList<>(claimants);
        more.add(new Claimant(first.namespace(), "zz-extra", first.namespaceWeight()));
        var before = byPolicy(SharedBudget.split(budget(connections), claimants));
        var after = byPolicy(SharedBudget.split(budget(connections), more));
        before.forEach((id, share) -> {
            if (!id.startsWith(first.namespace() + "/")) {
                assertThat(after.get(id)).as(id).isEqualTo(share);
            }
        });
    }

    @Property(tries = 500)
    void eachNamespaceGetsAtLeastItsProportionRoundedDown(@ForAll("claimants") List<Claimant> claimants,
            @ForAll @IntRange(min = 0, max = 1_000_000) int connections) {
        var weights = claimants.stream()
                .collect(Collectors.toMap(Claimant::namespace, Claimant::namespaceWeight, (a, b) -> a));
        long total = weights.values().stream().mapToLong(Integer::longValue).sum();
        var perNamespace = SharedBudget.split(budget(connections), claimants).stream()
                .collect(Collectors.groupingBy(Share::namespace, Collectors.summingLong(Share::connections)));
        weights.forEach((ns, w) -> assertThat(perNamespace.get(ns)).isBetween(connections * w / total,
                connections * w / total + 1));
    }

    @Provide
    Arbitrary<List<Claimant>> claimants() {
        var namespace = Arbitraries.of("a", "b", "c", "d", "e");
        Arbitrary<Map<String, Integer>> weights = Arbitraries.maps(namespace, Arbitraries.integers().between(1, 1000))
                .ofMinSize(1).ofMaxSize(5);
        return weights.flatMap(w -> Combinators.combine(Arbitraries.of(List.copyOf(w.keySet())),
                Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(6))
                .as((ns, policy) -> new Claimant(ns, policy, w.get(ns))).list().ofMaxSize(12)
                .uniqueElements(c -> c.namespace() + "/" + c.policy()));
    }
}
