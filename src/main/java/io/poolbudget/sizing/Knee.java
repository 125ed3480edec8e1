package io.poolbudget.sizing;

import java.util.Comparator;
import java.util.List;

/**
 * The knee of a throughput sweep: the fewest connections whose throughput is within a tolerance of
 * the best seen. Past it, more connections buy (almost) nothing but queueing inside the database.
 */
public final class Knee {
    /** One level of a sweep: connections, transactions per second, p99 latency in milliseconds. */
    public record Point(int connections, double tps, double p99Millis) {}

    private Knee() {}

    /** @param tolerance e.g. 0.05: within 5 % of the best throughput */
    public static Point of(List<Point> sweep, double tolerance) {
        if (sweep.isEmpty()) {
            throw new IllegalArgumentException("an empty sweep has no knee");
        }
        double best = sweep.stream().mapToDouble(Point::tps).max().orElseThrow();
        return sweep.stream().filter(p -> p.tps() >= best * (1 - tolerance))
                .min(Comparator.comparingInt(Point::connections)).orElseThrow();
    }

    public static Point best(List<Point> sweep) {
        return sweep.stream().max(Comparator.comparingDouble(Point::tps)).orElseThrow();
    }
}
