package io.poolbudget.bench;

/**
 * The resizes a strategy published, per phase and target: in all, the most of one target within one of the
 * operator's periods, and those in the phase's last period (a steady phase makes none).
 */
final class ResizeCounts {
    private final int[][] resizes;
    private final int[] mostPerPeriod;
    private final int[] lastPeriodWrites;
    private final long[] periodOf;
    private final int[] inPeriod;

    ResizeCounts(int phases, int targets) {
        resizes = new int[phases][targets];
        mostPerPeriod = new int[phases];
        lastPeriodWrites = new int[phases];
        periodOf = new long[targets];
        java.util.Arrays.fill(periodOf, Long.MIN_VALUE);
        inPeriod = new int[targets];
    }

    /** One size published to target {@code w} in phase {@code p}, in the operator's period {@code period}. */
    void publish(int p, int w, long period, boolean lastPeriod) {
        resizes[p][w]++;
        inPeriod[w] = periodOf[w] == period ? inPeriod[w] + 1 : 1;
        periodOf[w] = period;
        mostPerPeriod[p] = Math.max(mostPerPeriod[p], inPeriod[w]);
        lastPeriodWrites[p] += lastPeriod ? 1 : 0;
    }

    int[] resizes(int p) {
        return resizes[p].clone();
    }

    int mostPerPeriod(int p) {
        return mostPerPeriod[p];
    }

    int lastPeriodWrites(int p) {
        return lastPeriodWrites[p];
    }
}
