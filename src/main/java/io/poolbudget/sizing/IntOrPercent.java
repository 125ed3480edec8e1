package io.poolbudget.sizing;

/** A count given as a number or a percentage, as Kubernetes' maxSurge and maxUnavailable are. */
public record IntOrPercent(int value, boolean percent) {

    public IntOrPercent {
        if (value < 0) {
            throw new IllegalArgumentException("must not be negative, got " + value + (percent ? "%" : ""));
        }
    }

    public static IntOrPercent of(int value) {
        return new IntOrPercent(value, false);
    }

    public static IntOrPercent percent(int value) {
        return new IntOrPercent(value, true);
    }

    /** Parses {@code "25%"} or {@code "3"}. */
    public static IntOrPercent parse(String text) {
        String t = text.trim();
        try {
            return t.endsWith("%") ? percent(Integer.parseInt(t.substring(0, t.length() - 1).trim()))
                    : of(Integer.parseInt(t));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is neither a whole number nor a percentage like 25%");
        }
    }

    /** Resolves against {@code total} with Kubernetes' rounding: up for surge, down for unavailable. */
    public long resolve(long total, boolean roundUp) {
        if (!percent) {
            return value;
        }
        long scaled = (long) value * total; // at most (2^31 − 1)² : fits a long
        return roundUp ? (scaled + 99) / 100 : scaled / 100;
    }

    @Override
    public String toString() {
        return percent ? value + "%" : Integer.toString(value);
    }
}
