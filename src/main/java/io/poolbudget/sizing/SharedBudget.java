package io.poolbudget.sizing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One database's budget split between the policies that draw on it from several namespaces: first between
 * the namespaces by the weights the database's owner gave them, then equally between the policies of one
 * namespace. A tenant cannot enlarge its share from inside its namespace: more policies, or larger target
 * weights, split the same share. Only namespaces with a policy take part, so the budget is never left idle
 * for a namespace that does not use it. Largest remainder, ties in namespace (then policy) name order: the
 * shares add up to the budget exactly, whatever the order of the input. Pure.
 */
public final class SharedBudget {
    /** A policy drawing on the budget, and its namespace's weight (the same for every policy of a namespace). */
    public record Claimant(String namespace, String policy, int namespaceWeight) {
        public Claimant {
            Check.atLeast("namespace weight", namespaceWeight, 1);
            Check.atMost("namespace weight", namespaceWeight, Limits.WEIGHT);
        }
    }

    /** A policy's part of the budget: what it plans with, as if it were its own database's budget. */
    public record Share(String namespace, String policy, long connections, String explanation) {}

    private SharedBudget() {}

    public static List<Share> split(Budget budget, List<Claimant> claimants) {
        Map<String, List<Claimant>> byNamespace = new TreeMap<>();
        for (Claimant c : claimants) {
            byNamespace.computeIfAbsent(c.namespace(), k -> new ArrayList<>()).add(c);
        }
        List<String> namespaces = new ArrayList<>(byNamespace.keySet());
        long[] weights = new long[namespaces.size()];
        for (int i = 0; i < weights.length; i++) {
            List<Claimant> members = byNamespace.get(namespaces.get(i));
            int weight = members.get(0).namespaceWeight();
            weights[i] = weight;
            if (members.stream().anyMatch(m -> m.namespaceWeight() != weight)) {
                throw new IllegalArgumentException("namespace " + namespaces.get(i) + " has more than one weight");
            }
        }
        long totalWeight = 0;
        for (long w : weights) {
            totalWeight += w;
        }
        long[] perNamespace = largestRemainder(budget.connections(), weights);
        List<Share> shares = new ArrayList<>(claimants.size());
        for (int i = 0; i < namespaces.size(); i++) {
            List<Claimant> members = new ArrayList<>(byNamespace.get(namespaces.get(i)));
            members.sort(Comparator.comparing(Claimant::policy));
            long[] equal = new long[members.size()];
            java.util.Arrays.fill(equal, 1);
            long[] perPolicy = largestRemainder(perNamespace[i], equal);
            for (int j = 0; j < members.size(); j++) {
                String why = perPolicy[j] + " of " + budget.connections() + ": namespace " + namespaces.get(i)
                        + " weight " + weights[i] + " of " + totalWeight + " (" + namespaces.size() + " namespaces) → "
                        + perNamespace[i] + (members.size() == 1 ? "" : ", split equally between its "
                                + members.size() + " policies")
                        + "; where " + budget.explanation();
                shares.add(new Share(namespaces.get(i), members.get(j).policy(), perPolicy[j], why));
            }
        }
        return List.copyOf(shares);
    }

    /** {@code total} in proportion to {@code weights}: floors, then one more to the largest remainders. */
    static long[] largestRemainder(long total, long[] weights) {
        long sum = 0;
        for (long w : weights) {
            sum += w;
        }
        long[] parts = new long[weights.length];
        if (sum == 0) {
            return parts;
        }
        long given = 0;
        long[] remainders = new long[weights.length];
        for (int i = 0; i < weights.length; i++) {
            // a budget ≤ 10^9 (CONNECTIONS × INSTANCES) times a weight ≤ 10^6 fits a long
            long exact = Math.multiplyExact(total, weights[i]);
            parts[i] = exact / sum;
            remainders[i] = exact % sum;
            given += parts[i];
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < weights.length; i++) {
            order.add(i);
        }
        order.sort(Comparator.<Integer>comparingLong(i -> -remainders[i]).thenComparing(i -> i));
        for (int k = 0; given < total; k++) {
            parts[order.get(k)]++;
            given++;
        }
        return parts;
    }
}
