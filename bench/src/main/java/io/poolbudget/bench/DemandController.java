package io.poolbudget.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The operator's Demand allocation over the benchmark's pools, period by period: each pool's demand (the agent's own:
 * the high watermark of in use plus waiting over the last 10 s, sampled every 100 ms), smoothed, one allocation solved for the budget, then
 * resized shrink-first through the agent's code: the shrinks are published, the controller waits until each shrunk
 * pool confirms (its maximum at the size and no more connections than that), and only then publishes the raises, each
 * within what the confirmed shrinks freed; a pool that does not confirm in time keeps being counted at its larger size.
 * Periods start half a period after the run (the load's phases change on whole periods; an operator's period has no
 * tie to them, so on average a change is seen half a period late).
 */
final class DemandController implements AutoCloseable {
    /** The decision itself: the smoothing and the solver (the operator's sizing/ DemandSignal and DemandSolver). */
    interface Allocator {
        double smooth(Double previous, double sample, double elapsedSeconds);

        /** New sizes for the smoothed demand (null: unknown) and the sizes in force. */
        int[] solve(Double[] demand, int[] current);

        /** Why the last solve gave its sizes, one line. */
        String explain();
    }

    private static final long CONFIRM_WAIT_MS = 5_000;
    private final DemandFleet fleet;
    private final BenchOptions o;
    private final Allocator allocator;
    private final int[] current;
    private final Double[] smoothed;
    private final int[][] resizes;
    private final int[] mostPerPeriod;
    private final int[] lastPeriodWrites;
    private final int[][] atPhaseStart;
    private final List<String> log = new ArrayList<>();
    private final Thread thread;
    private volatile int[] inForce;
    private volatile int phase;
    private volatile long phaseStart = System.nanoTime();

    DemandController(DemandFleet fleet, BenchOptions o, Allocator allocator, int phases) {
        this.fleet = fleet;
        this.o = o;
        this.allocator = allocator;
        this.current = fleet.sizes.clone();
        this.inForce = current.clone();
        this.smoothed = new Double[current.length];
        this.resizes = new int[phases][current.length];
        this.mostPerPeriod = new int[phases];
        this.lastPeriodWrites = new int[phases];
        this.atPhaseStart = new int[phases][];
        for (var r : fleet.resizers) {
            r.startDemand();
        }
        this.thread = new Thread(this::loop, "demand-controller");
        thread.setDaemon(true);
    }

    /** The run's clock starts: the first period ends half a period from now. */
    void start() {
        thread.start();
    }

    /** A phase starts (never waits for a period's step, which may wait for a confirmation). */
    void phase(int p) {
        phaseStart = System.nanoTime();
        phase = p;
        atPhaseStart[p] = inForce;
    }

    /** The sizes in force as the phase started and as it ended. */
    synchronized String sizes(int p) {
        int[] end = p + 1 < atPhaseStart.length && atPhaseStart[p + 1] != null ? atPhaseStart[p + 1] : inForce;
        return PhaseResult.sizes(atPhaseStart[p]) + ">" + PhaseResult.sizes(end);
    }

    private void loop() {
        long period = TimeUnit.SECONDS.toNanos(o.periodSeconds());
        long start = System.nanoTime();
        long last = start;
        for (long next = start + period / 2;; next += period) {
            long wait = next - System.nanoTime();
            try {
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                long now = System.nanoTime();
                step((now - start) / 1e9, (now - last) / 1e9);
                last = now;
            } catch (InterruptedException e) {
                return;
            } catch (IOException e) {
                throw new IllegalStateException("could not publish a size: " + e, e);
            }
        }
    }

    private synchronized void step(double at, double elapsed) throws IOException, InterruptedException {
        int p = phase;
        boolean lastPeriod = (System.nanoTime() - phaseStart) / 1e9 >= o.phaseSeconds() - o.periodSeconds();
        Integer[] samples = new Integer[current.length];
        for (int w = 0; w < current.length; w++) {
            samples[w] = fleet.resizers[w].demand();
            smoothed[w] = samples[w] == null ? null : allocator.smooth(smoothed[w], samples[w], elapsed);
        }
        int[] target = allocator.solve(smoothed, current);
        int[] before = current.clone();
        int[] published = new int[current.length];
        List<Integer> shrunk = new ArrayList<>();
        for (int w = 0; w < current.length; w++) {
            if (target[w] < current[w]) {
                fleet.resizers[w].publish(target[w]);
                published[w]++;
                shrunk.add(w);
            }
        }
        long confirmStart = System.nanoTime();
        boolean[] confirmed = new boolean[current.length];
        while (System.nanoTime() - confirmStart < TimeUnit.MILLISECONDS.toNanos(CONFIRM_WAIT_MS)) {
            boolean all = true;
            for (int w : shrunk) {
                confirmed[w] = confirmed[w] || fleet.resizers[w].confirmed();
                all &= confirmed[w];
            }
            if (all) {
                break;
            }
            Thread.sleep(10);
        }
        long confirmMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - confirmStart);
        for (int w : shrunk) {
            if (confirmed[w]) {
                current[w] = target[w];
            }
        }
        long free = o.budget() - Arrays.stream(current).sum();
        for (int w = 0; w < current.length; w++) {
            if (target[w] > current[w] && free > 0) {
                int grant = (int) Math.min(target[w], current[w] + free);
                fleet.resizers[w].publish(grant);
                published[w]++;
                free -= grant - current[w];
                current[w] = grant;
            }
        }
        inForce = current.clone();
        for (int w = 0; w < current.length; w++) {
            resizes[p][w] += published[w];
            mostPerPeriod[p] = Math.max(mostPerPeriod[p], published[w]);
            lastPeriodWrites[p] += lastPeriod ? published[w] : 0;
        }
        log.add(String.format(Locale.ROOT, "  %6.1f s  %-9s watermark %-9s smoothed %-17s solved %-8s sizes %s -> %s%s",
                at, o.phases().get(p).name(), text(samples), smoothedText(), PhaseResult.sizes(target),
                PhaseResult.sizes(before), PhaseResult.sizes(current),
                shrunk.isEmpty() ? "" : "  (shrinks confirmed in " + confirmMs + " ms"
                        + (shrunk.stream().allMatch(w -> confirmed[w]) ? ")" : ", NOT ALL: counted at their size)")));
        if (!Arrays.equals(before, current)) {
            log.add("            " + allocator.explain());
        }
    }

    private static String text(Integer[] values) {
        return String.join(",", Arrays.stream(values).map(v -> v == null ? "-" : v.toString()).toArray(String[]::new));
    }

    private String smoothedText() {
        return String.join(",",
                Arrays.stream(smoothed).map(d -> d == null ? "-" : String.format(Locale.ROOT, "%.1f", d))
                        .toArray(String[]::new));
    }

    synchronized int[] resizes(int p) {
        return resizes[p].clone();
    }

    synchronized int mostPerPeriod(int p) {
        return mostPerPeriod[p];
    }

    synchronized int lastPeriodWrites(int p) {
        return lastPeriodWrites[p];
    }

    synchronized List<String> log() {
        return List.copyOf(log);
    }

    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join();
        for (var r : fleet.resizers) {
            r.close();
        }
    }
}
