package io.poolbudget.sizing;

import java.util.PriorityQueue;

/**
 * Hands borrowers the connections lenders left unused, one pool-size step at a time. A step of target i from size s
 * to s+1 costs {@code cost[i]} connections and has priority {@code weight[i] / (s + ½)}, as in {@link Apportionment};
 * steps go in that one fixed order (ties by id). A step that does not fit what is left ends that target's turn (its
 * later steps cost the same and nothing is given back), while cheaper targets may still take steps that fit: the lent
 * pool is used as far as it goes, and a second pass over the same input finds nothing more to hand out.
 */
final class DemandBorrowing {
    private final long[] cost;
    private final int[] weight;
    private final String[] id;
    private final int[] sizes;
    private final boolean[] blocked;
    private long left;

    /** Sizes start where given (each borrower at its nominal); {@code lent} is what lenders left unused. */
    DemandBorrowing(long[] cost, int[] weight, String[] id, int[] sizes, long lent) {
        this.cost = cost;
        this.weight = weight;
        this.id = id;
        this.sizes = sizes;
        this.blocked = new boolean[sizes.length];
        this.left = lent;
    }

    /** Raises each target toward {@code level[i]} in fair order while the steps fit. */
    /** The lent connections no step took. */
    long left() {
        return left;
    }

    void fill(int[] level) {
        PriorityQueue<Integer> next = new PriorityQueue<>(this::compare);
        for (int i = 0; i < sizes.length; i++) {
            if (!blocked[i] && sizes[i] < level[i]) {
                next.add(i);
            }
        }
        while (!next.isEmpty()) {
            int i = next.poll();
            if (cost[i] > left) {
                blocked[i] = true;
                continue;
            }
            left -= cost[i];
            sizes[i]++;
            if (sizes[i] < level[i]) {
                next.add(i);
            }
        }
    }

    int[] sizes() {
        return sizes;
    }

    /** Higher priority w/(s+½) first, compared exactly; equal priorities by id. */
    private int compare(int i, int j) {
        // w_i/(2s_i+1) > w_j/(2s_j+1)  <=>  w_i·(2s_j+1) > w_j·(2s_i+1); weights and sizes are bounded, so this fits
        int byPriority = Long.compare((long) weight[j] * (2L * sizes[i] + 1), (long) weight[i] * (2L * sizes[j] + 1));
        return byPriority != 0 ? byPriority : id[i].compareTo(id[j]);
    }
}
