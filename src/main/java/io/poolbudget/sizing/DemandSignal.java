package io.poolbudget.sizing;

/**
 * Smooths a target's demand between solver passes. A higher sample is taken at once (a burst is served now); a lower
 * one is approached gradually, halving the distance every half-life, so a short lull does not lend a pool away. Within
 * {@link #SETTLE} of the sample it settles on it: a decay never ends by itself, and sizes are whole connections, so a
 * demand of 1.4 still asks for 2 (after a blip to 2, a quiet target would lend again only some 30 half-lives later,
 * not 1).
 */
public final class DemandSignal {
    private DemandSignal() {}

    /**
     * Half a connection: closer than that to the sample, the smoothed demand is the sample. What is left of a decay
     * then asks for at most one connection the sample does not, and only from rounding up a fraction.
     */
    static final double SETTLE = 0.5;

    /** Rises at once to a higher sample, decays toward a lower one with the given half-life. */
    public static double smooth(Double previous, double sample, double elapsedSeconds, double halfLifeSeconds) {
        if (previous != null) {
            requireNonNegative("previous demand", previous);
        }
        requireNonNegative("demand sample", sample);
        requireNonNegative("elapsed seconds", elapsedSeconds);
        if (!(halfLifeSeconds > 0) || Double.isInfinite(halfLifeSeconds)) {
            throw new InvalidInputException("demand half-life",
                    "must be a positive number of seconds, got " + halfLifeSeconds);
        }
        if (previous == null || sample >= previous) {
            return sample;
        }
        double above = (previous - sample) * Math.pow(0.5, elapsedSeconds / halfLifeSeconds);
        return above < SETTLE ? sample : sample + above;
    }

    private static void requireNonNegative(String field, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new InvalidInputException(field, "must be a finite number at least 0, got " + value);
        }
    }
}
