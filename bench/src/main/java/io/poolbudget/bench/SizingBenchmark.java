package io.poolbudget.bench;

import io.poolbudget.sizing.Allocation;
import io.poolbudget.sizing.DatabaseInput;
import io.poolbudget.sizing.IntOrPercent;
import io.poolbudget.sizing.PeakPods;
import io.poolbudget.sizing.PoolSizer;
import io.poolbudget.sizing.Rollout;
import io.poolbudget.sizing.TargetInput;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Allocation time for 1,000, 10,000 and 100,000 targets (goal: 100,000 in at most 50 ms).
 * A plain harness: fixed-seed inputs, warm-up rounds, then timed rounds; prints median, min, p90
 * and bytes allocated per call. Run with bench/run.sh.
 */
public class SizingBenchmark {
    static final int WARMUP = 15;
    static final int MEASURED = 25;
    static final double GOAL_MS = 50;

    public static void main(String[] args) {
        System.out.printf(Locale.ROOT, "java %s, %d cpus, max heap %d MiB%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
        System.out.printf(Locale.ROOT, "%-9s %10s %10s %10s %14s  %s%n", "targets", "median ms", "min ms", "p90 ms",
                "alloc MiB/op", "result");
        boolean met = true;
        for (int n : new int[]{1_000, 10_000, 100_000}) {
            met &= run(n);
        }
        System.out.println(met ? "goal met: 100,000 targets within " + GOAL_MS + " ms (median)"
                : "GOAL MISSED: 100,000 targets took longer than " + GOAL_MS + " ms (median)");
        System.exit(met ? 0 : 1);
    }

    static boolean run(int n) {
        List<TargetInput> targets = targets(n, new Random(42));
        DatabaseInput db = database(targets);
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Allocation last = null;
        for (int i = 0; i < WARMUP; i++) {
            last = PoolSizer.allocate(db, targets);
        }
        double[] ms = new double[MEASURED];
        long bytes = 0;
        for (int i = 0; i < MEASURED; i++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            long t0 = System.nanoTime();
            last = PoolSizer.allocate(db, targets);
            ms[i] = (System.nanoTime() - t0) / 1e6;
            bytes += threads.getCurrentThreadAllocatedBytes() - before;
        }
        Arrays.sort(ms);
        double median = ms[MEASURED / 2];
        System.out.printf(Locale.ROOT, "%-9d %10.2f %10.2f %10.2f %14.1f  %s, %d of %d connections%n", n, median, ms[0],
                ms[(int) (MEASURED * 0.9)], bytes / (double) MEASURED / (1 << 20), last.verdict(), last.allocated(),
                last.budget().connections());
        return n < 100_000 || median <= GOAL_MS;
    }

    /** A realistic mix: mostly small Deployments, some with HPAs, some StatefulSets, weights 1-10. */
    static List<TargetInput> targets(int n, Random random) {
        List<TargetInput> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int replicas = 1 + random.nextInt(20);
            Rollout rollout = switch (random.nextInt(10)) {
                case 0 -> new Rollout.Ordered();
                case 1 -> new Rollout.Recreate();
                case 2 -> new Rollout.RollingUpdate(IntOrPercent.of(1), IntOrPercent.of(0));
                default -> Rollout.RollingUpdate.DEFAULT;
            };
            int min = 1 + random.nextInt(2);
            list.add(TargetInput.builder("Deployment/app-" + i).replicas(replicas)
                    .hpaMaxReplicas(random.nextInt(3) == 0 ? replicas + random.nextInt(30) : null).rollout(rollout)
                    .weight(1 + random.nextInt(10)).minPoolSize(min)
                    .maxPoolSize(random.nextBoolean() ? min + random.nextInt(30) : null).build());
        }
        return list;
    }

    /** A budget four times what the minimums need, so the fair order does real work. */
    static DatabaseInput database(List<TargetInput> targets) {
        long minimums = targets.stream().mapToLong(t -> PeakPods.of(t).cost() * t.minPoolSize()).sum();
        return new DatabaseInput(1, 0, 2, null, 0, (int) Math.min(Integer.MAX_VALUE, 4 * minimums));
    }
}
