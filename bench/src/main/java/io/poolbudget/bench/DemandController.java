package io.poolbudget.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Resizes the benchmark's pools as the operator resizes pods, shrink-first through the agent's code: the shrinks are
 * published, the controller waits until each shrunk pool confirms (its maximum at the size and no more connections than
 * that), and only then publishes the raises, each within what the confirmed shrinks freed; a pool that does not
 * confirm in time keeps being counted at its larger size. Two ways to decide:
 * <ul>
 * <li>an {@link Allocator} (the operator's Demand): every period, and between periods as soon as a pool starts to
 * starve (its demand over its size: callers wait beyond it), as the operator's agent reads wake a policy; the periods
 * start half a period after the run (an operator's period has no tie to the load's phases, so on average a change is
 * seen half a period late). Between periods a pool is read as the operator reads a pod's agent: every pool's size
 * follows demand, so each is watched while it does not starve (the agent answers within its 100 ms sample of the pool
 * starting to starve: here its last sample is looked at every {@link #WATCH_NS}), and read once a second.</li>
 * <li>a schedule (the oracle): per phase, the split best for it, taken as the phase starts, or a given time after
 * (the late oracle: the best an allocation that sees a load only through a read of its pods' agents can do).</li>
 * </ul>
 */
final class DemandController implements AutoCloseable {
    /** The decision: sizes for the pools' demand samples (null: unknown) and the sizes in force. */
    interface Allocator {
        int[] nominal();

        /** {@code samples}: the agents' 10 s highs; {@code recent}: their highs of the last two seconds. */
        int[] decide(Integer[] samples, Integer[] recent, int[] current, long nowMs);

        /** The smoothed demand, as text. */
        String smoothed();

        /** Why the last decision gave its sizes, one line. */
        String explain();
    }

    private static final long CONFIRM_WAIT_MS = 5_000;
    /** How often the operator reads a watched pod's agent at the latest (observe/AgentScraper). */
    private static final long READ_EVERY_NS = TimeUnit.SECONDS.toNanos(1);
    /** How often a watch's answer is looked for: the agent's sample. */
    private static final long WATCH_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private final DemandFleet fleet;
    private final BenchOptions o;
    private final Allocator allocator;
    private final int[][] schedule;
    private final long lateMs;
    private final int[] current;
    private final boolean[] starving;
    private final Integer[] read;
    private final long[] readAt;
    private final ResizeCounts counts;
    private final int[][] atPhaseStart;
    private final List<String> log = new ArrayList<>();
    private final Semaphore phaseStarted = new Semaphore(0);
    private final Thread thread;
    private volatile int[] inForce;
    private volatile int phase;
    private volatile long phaseStart = System.nanoTime();
    private long start;

    /**
     * Decided by {@code allocator}, or (allocator null) by {@code schedule}, a split per phase taken {@code lateMs}
     * after the phase starts.
     */
    DemandController(DemandFleet fleet, BenchOptions o, Allocator allocator, int[][] schedule, long lateMs,
            int phases) {
        this.fleet = fleet;
        this.o = o;
        this.allocator = allocator;
        this.schedule = schedule;
        this.lateMs = lateMs;
        this.current = fleet.sizes.clone();
        this.inForce = current.clone();
        this.starving = new boolean[current.length];
        this.read = new Integer[current.length];
        this.readAt = new long[current.length];
        this.counts = new ResizeCounts(phases, current.length);
        this.atPhaseStart = new int[phases][];
        for (var r : fleet.resizers) {
            r.startDemand();
        }
        this.thread = new Thread(this::loop, "demand-controller");
        thread.setDaemon(true);
    }

    /** The run's clock starts: the first period ends half a period from now. */
    void start() {
        start = System.nanoTime();
        thread.start();
    }

    /** A phase starts (never waits for a step, which may wait for a confirmation). */
    void phase(int p) {
        phaseStart = System.nanoTime();
        phase = p;
        atPhaseStart[p] = inForce;
        phaseStarted.release();
    }

    /** The sizes in force as the phase started and as it ended. */
    synchronized String sizes(int p) {
        int[] end = p + 1 < atPhaseStart.length && atPhaseStart[p + 1] != null ? atPhaseStart[p + 1] : inForce;
        return PhaseResult.sizes(atPhaseStart[p]) + ">" + PhaseResult.sizes(end);
    }

    private void loop() {
        long period = TimeUnit.SECONDS.toNanos(o.periodSeconds());
        long next = start + period / 2;
        try {
            while (true) {
                long now = System.nanoTime();
                if (allocator == null) {
                    phaseStarted.acquire();
                    Thread.sleep(lateMs);
                    step(lateMs == 0 ? "phase start" : lateMs + " ms in", schedule[phase]);
                    continue;
                }
                if (phaseStarted.tryAcquire(Math.max(0, Math.min(next, now + WATCH_NS) - now),
                        TimeUnit.NANOSECONDS)) {
                    continue; // a phase start alone decides nothing: the operator does not know of phases
                }
                now = System.nanoTime();
                String why = now >= next ? "period" : starts(now) ? "starving" : null;
                while (next <= now) {
                    next += period;
                }
                if (why != null) {
                    step(why, allocator.decide(samples(), recents(), current.clone(),
                            TimeUnit.NANOSECONDS.toMillis(now - start)));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new IllegalStateException("could not publish a size: " + e, e);
        }
    }

    private Integer[] recents() {
        Integer[] recent = new Integer[current.length];
        for (int w = 0; w < current.length; w++) {
            recent[w] = fleet.resizers[w].recent();
        }
        return recent;
    }

    private Integer[] samples() {
        Integer[] samples = new Integer[current.length];
        for (int w = 0; w < current.length; w++) {
            samples[w] = fleet.resizers[w].demand();
        }
        return samples;
    }

    /**
     * Reads the pools that are due or whose watch answers (one that did not starve at its last read and whose agent's
     * last sample is above its size), and whether one has just started to starve: its demand over its size, where at
     * its last read it was not.
     */
    private synchronized boolean starts(long now) {
        boolean starts = false;
        for (int w = 0; w < current.length; w++) {
            boolean answers = read[w] != null && !starving[w] && fleet.resizers[w].starvingAbove(current[w]);
            if (!answers && read[w] != null && now - readAt[w] < READ_EVERY_NS) {
                continue;
            }
            read[w] = fleet.resizers[w].demand();
            readAt[w] = now;
            boolean starved = read[w] != null && read[w] > current[w];
            starts |= starved && !starving[w];
            starving[w] = starved;
        }
        return starts;
    }

    private synchronized void step(String why, int[] target) throws IOException, InterruptedException {
        long at = System.nanoTime();
        int p = phase;
        boolean lastPeriod = (at - phaseStart) / 1e9 >= o.phaseSeconds() - o.periodSeconds();
        int[] before = current.clone();
        Integer[] samples = samples();
        List<Integer> shrunk = new ArrayList<>();
        for (int w = 0; w < current.length; w++) {
            if (target[w] < current[w]) {
                fleet.resizers[w].publish(target[w]);
                counts.publish(p, w, period(at), lastPeriod);
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
                counts.publish(p, w, period(at), lastPeriod);
                free -= grant - current[w];
                current[w] = grant;
            }
        }
        inForce = current.clone();
        log.add(String.format(Locale.ROOT,
                "  %6.1f s  %-9s %-11s watermark %-9s smoothed %-17s target %-8s sizes %s -> "
                        + "%s%s",
                (at - start) / 1e9, o.phases().get(p).name(), why, text(samples),
                allocator == null ? "" : allocator.smoothed(), PhaseResult.sizes(target), PhaseResult.sizes(before),
                PhaseResult.sizes(current), shrunk.isEmpty() ? "" : "  (shrinks confirmed in " + confirmMs + " ms"
                        + (shrunk.stream().allMatch(w -> confirmed[w]) ? ")" : ", NOT ALL: counted at their size)")));
        if (allocator != null && !Arrays.equals(before, current)) {
            log.add("            " + allocator.explain());
        }
    }

    /** The operator's period the moment falls in (-1 before the first ends). */
    private long period(long at) {
        long period = TimeUnit.SECONDS.toNanos(o.periodSeconds());
        return Math.floorDiv(at - start - period / 2, period);
    }

    private static String text(Integer[] values) {
        return String.join(",", Arrays.stream(values).map(v -> v == null ? "-" : v.toString()).toArray(String[]::new));
    }

    synchronized int[] resizes(int p) {
        return counts.resizes(p);
    }

    synchronized int mostPerPeriod(int p) {
        return counts.mostPerPeriod(p);
    }

    synchronized int lastPeriodWrites(int p) {
        return counts.lastPeriodWrites(p);
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
