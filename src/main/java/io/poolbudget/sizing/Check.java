package io.poolbudget.sizing;

final class Check {
    private Check() {}

    static void atMost(String field, long value, long maximum) {
        if (value > maximum) {
            throw new InvalidInputException(field, "must be at most " + maximum + ", got " + value);
        }
    }

    static void atLeast(String field, long value, long minimum) {
        if (value < minimum) {
            throw new InvalidInputException(field, "must be at least " + minimum + ", got " + value);
        }
    }
}
