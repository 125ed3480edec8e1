package io.poolbudget.sizing;

import java.util.PriorityQueue;

/**
 * The definition the fast {@link Apportionment} must match, written the slow, obvious way: take
 * the highest-priority step (w / (s + ½), ties by id) one at a time until one does not fit.
 */
final class ReferenceApportionment {
    private ReferenceApportionment() {}

    static int[] apportion(long spare, Apportionment input) {
        long[] cost = input.cost();
        int[] weight = input.weight();
        int[] max = input.max();
        String[] id = input.id();
        int[] min = input.min();
        int[] sizes = min.clone();
        var queue = new PriorityQueue<Integer>((a, b) -> {
            int byPriority = Long.compare((long) weight[b] * (2L * sizes[a] + 1),
                    (long) weight[a] * (2L * sizes[b] + 1));
            return byPriority != 0 ? byPriority : id[a].compareTo(id[b]);
        });
        for (int i = 0; i < cost.length; i++) {
            if (sizes[i] < max[i]) {
                queue.add(i);
            }
        }
        long left = spare;
        while (!queue.isEmpty()) {
            int i = queue.poll();
            if (cost[i] > left) {
                break;
            }
            left -= cost[i];
            sizes[i]++;
            if (sizes[i] < max[i]) {
                queue.add(i);
            }
        }
        return sizes;
    }
}
