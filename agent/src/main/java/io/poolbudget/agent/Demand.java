package io.poolbudget.agent;

import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The pod's demand for connections: every {@link #SAMPLE_MS} the sum over its pools of the connections in use plus the
 * callers waiting for one, kept as the highest sample of each second over the last {@link #WINDOW_SECONDS} seconds
 * (a ring of one slot per second; nothing is allocated per sample). {@link #demand()} is the highest of the window,
 * read as often as anyone likes (it resets nothing). The window is the operator's longest interval between two reads
 * of a pod that holds its size (10 s), so a burst between two reads is never missed.
 * <p>
 * Unknown rather than wrong: a sample where a pool cannot be read, does not count its connections in use (Agroal with
 * its metrics off) or no pool is found is unknown, and a window with an unknown sample, or with no sample yet, has no
 * demand ({@code null}, never 0).
 */
final class Demand {
    static final long SAMPLE_MS = 100;
    static final int WINDOW_SECONDS = 10;
    private static final int UNKNOWN = -1;

    private final Supplier<List<Pools.Pool>> pools;
    private final LongSupplier nanos;
    /** Per slot: the second (of {@link #nanos}) it holds, and the highest sample of that second or UNKNOWN. */
    private final long[] second = new long[WINDOW_SECONDS];
    private final int[] high = new int[WINDOW_SECONDS];
    /** The last sample, or UNKNOWN. */
    private int latest = UNKNOWN;

    /** {@code pools}: the pools to sample (the resizer's, as it last found them; null where it could not). */
    Demand(Supplier<List<Pools.Pool>> pools, LongSupplier nanos) {
        this.pools = pools;
        this.nanos = nanos;
        java.util.Arrays.fill(second, Long.MIN_VALUE);
    }

    /** Samples on a daemon thread every {@link #SAMPLE_MS} until the JVM ends (or the thread is interrupted). */
    Thread start() {
        return Resizer.every(SAMPLE_MS, "poolbudget-agent-demand", this::sample);
    }

    /** Reads every pool once and records the sum in its second's slot. */
    void sample() {
        record(read(), Math.floorDiv(nanos.getAsLong(), 1_000_000_000L));
    }

    /** Connections in use plus callers waiting, over every pool; null where that is not known. */
    private Integer read() {
        List<Pools.Pool> all = pools.get();
        if (all == null || all.isEmpty()) {
            return null;
        }
        int sum = 0;
        for (int i = 0; i < all.size(); i++) { // no iterator: ten times a second
            Pools.Pool pool = all.get(i);
            try {
                int active = pool.active();
                int awaiting = pool.awaiting();
                if (active < 0 || awaiting < 0) {
                    return null;
                }
                sum += active + awaiting;
            } catch (Exception e) { // the resizer reports the pool's failure; here it only makes the demand unknown
                return null;
            }
        }
        return sum;
    }

    private synchronized void record(Integer sample, long now) {
        int slot = (int) Math.floorMod(now, (long) WINDOW_SECONDS);
        int value = sample == null ? UNKNOWN : sample;
        latest = value;
        if (value != UNKNOWN) {
            notifyAll(); // a reader waiting for the pod to starve ({@link #awaitAbove})
        }
        if (second[slot] != now) {
            second[slot] = now;
            high[slot] = value;
        } else if (high[slot] != UNKNOWN) {
            high[slot] = value == UNKNOWN ? UNKNOWN : Math.max(high[slot], value);
        }
    }

    /**
     * Waits until a sample is above {@code size} (callers wait beyond it: the pod starves) or {@code maxMillis} have
     * passed, and says whether the last sample is above it (at once if it already is).
     */
    synchronized boolean awaitAbove(int size, long maxMillis) throws InterruptedException {
        long deadline = System.nanoTime() + maxMillis * 1_000_000;
        for (long left = maxMillis * 1_000_000; latest <= size && left > 0; left = deadline - System.nanoTime()) {
            wait(Math.max(1, left / 1_000_000));
        }
        return latest > size;
    }

    /**
     * The highest sample of this second and the one before (null where one was unknown or none was taken): what the pod
     * wants now, where {@link #demand()} also holds a load that ended up to 10 s ago. The operator counts a target at it
     * only to give back what it no longer uses while another target waits.
     */
    synchronized Integer recent() {
        return highOf(2);
    }

    /** Whether the last sample is above {@code size}: what a watch answers on, as the benchmark reads it. */
    synchronized boolean lastAbove(int size) {
        return latest > size;
    }

    /** The highest sample of the last {@link #WINDOW_SECONDS} seconds; null where one was unknown or none was taken. */
    synchronized Integer demand() {
        return highOf(WINDOW_SECONDS);
    }

    /** The highest sample of the last {@code seconds} seconds (this one included); null as {@link #demand()} says. */
    private Integer highOf(int seconds) {
        long now = Math.floorDiv(nanos.getAsLong(), 1_000_000_000L);
        int max = UNKNOWN;
        for (int i = 0; i < WINDOW_SECONDS; i++) {
            if (second[i] > now - seconds && second[i] <= now) {
                if (high[i] == UNKNOWN) {
                    return null;
                }
                max = Math.max(max, high[i]);
            }
        }
        return max == UNKNOWN ? null : max;
    }
}
