package io.poolbudget.sizing;

import java.util.List;

/**
 * Gunther's Universal Scalability Law fitted to a throughput sweep: {@code X(N) = λN / (1 + σ(N−1) + κN(N−1))}, with
 * λ the throughput of one connection, σ contention (queueing on a shared resource) and κ coherency (the cost of
 * connections keeping each other consistent, which makes throughput fall past a peak). A fitted curve uses every
 * measurement at once, so one noisy level moves the knee far less than it moves a single maximum.
 *
 * <p>The fit is least squares on throughput. For a given λ the model is linear in σ and κ once rearranged
 * ({@code λN/X − 1 = σ(N−1) + κN(N−1)}), solved with σ, κ ≥ 0; λ itself is found by a search that minimises the
 * squared throughput error. (usl4j, the Java library for this, is not in the package registry this project builds
 * from; the fit is forty lines of JDK.)
 */
public final class Usl {
    /** One measurement: connections held busy and the throughput they gave. Repeated levels are welcome. */
    public record Sample(int connections, double tps) {
        public Sample {
            if (connections < 1 || !(tps > 0) || !Double.isFinite(tps)) {
                throw new IllegalArgumentException("a sample needs connections ≥ 1 and a positive throughput, not "
                        + connections + " at " + tps);
            }
        }
    }

    /** The fitted curve. */
    public record Model(double lambda, double sigma, double kappa) {
        public double throughput(double n) {
            return lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1));
        }

        /** The connections where throughput peaks, {@code √((1−σ)/κ)}; infinite when nothing makes it fall. */
        public double peakConnections() {
            if (sigma >= 1) {
                return 1;
            }
            return kappa <= 0 ? Double.POSITIVE_INFINITY : Math.sqrt((1 - sigma) / kappa);
        }

        /** The most this curve ever gives: at its peak, or where it flattens out; infinite when it only rises. */
        public double ceiling() {
            double peak = peakConnections();
            if (Double.isFinite(peak)) {
                return throughput(peak);
            }
            return sigma > 0 ? lambda / sigma : Double.POSITIVE_INFINITY;
        }

        /**
         * The knee among the levels tried: the fewest connections whose fitted throughput is within {@code tolerance}
         * of the best fitted throughput at a level tried. Compared on the curve, not with the noisiest measurement.
         */
        public int knee(int[] levels, double tolerance) {
            if (levels.length == 0) {
                throw new IllegalArgumentException("no levels to choose a knee from");
            }
            double best = 0;
            int knee = Integer.MAX_VALUE;
            for (int n : levels) {
                best = Math.max(best, throughput(n));
            }
            for (int n : levels) {
                if (throughput(n) >= best * (1 - tolerance)) {
                    knee = Math.min(knee, n);
                }
            }
            return knee;
        }

        /**
         * Whether the curve still gains more than the tolerance beyond the highest level tried: its peak (or where it
         * flattens) lies beyond that level. A curve already past its peak there is falling, not rising.
         */
        public boolean stillRising(int[] levels, double tolerance) {
            int highest = java.util.Arrays.stream(levels).max().orElseThrow();
            return peakConnections() > highest && throughput(highest) < ceiling() * (1 - tolerance);
        }
    }

    private Usl() {}

    /** The curve for these measurements. */
    public static Model fit(List<Sample> samples) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("an empty sweep cannot be fitted");
        }
        double perConnection = 0;
        for (Sample s : samples) {
            perConnection = Math.max(perConnection, s.tps() / s.connections());
        }
        // λ ≥ the best per-connection throughput seen would hold without noise; allow noise below it, and contention
        // that already shows at the first level above it. A log grid, then golden-section refinement near its best.
        double lo = Math.log(perConnection * 0.5);
        double hi = Math.log(perConnection * 8);
        int steps = 400;
        double bestAt = lo;
        double bestError = Double.POSITIVE_INFINITY;
        for (int i = 0; i <= steps; i++) {
            double at = lo + (hi - lo) * i / steps;
            double error = error(samples, forLambda(samples, Math.exp(at)));
            if (error < bestError) {
                bestError = error;
                bestAt = at;
            }
        }
        double step = (hi - lo) / steps;
        double a = bestAt - step;
        double b = bestAt + step;
        double phi = (Math.sqrt(5) - 1) / 2;
        for (int i = 0; i < 60; i++) {
            double c = b - phi * (b - a);
            double d = a + phi * (b - a);
            if (error(samples, forLambda(samples, Math.exp(c))) < error(samples, forLambda(samples, Math.exp(d)))) {
                b = d;
            } else {
                a = c;
            }
        }
        Model refined = forLambda(samples, Math.exp((a + b) / 2));
        Model grid = forLambda(samples, Math.exp(bestAt));
        return error(samples, refined) <= error(samples, grid) ? refined : grid;
    }

    /** σ, κ ≥ 0 for a fixed λ: weighted least squares on {@code λN/X − 1}, weighted to approximate throughput error. */
    static Model forLambda(List<Sample> samples, double lambda) {
        double saa = 0;
        double sab = 0;
        double sbb = 0;
        double say = 0;
        double sby = 0;
        for (Sample s : samples) {
            double n = s.connections();
            double y = lambda * n / s.tps() - 1;
            // dX/dy ≈ X²/(λN): an error of δ in y is one of δ·X²/(λN) in throughput
            double w = Math.pow(s.tps() * s.tps() / (lambda * n), 2);
            double a = n - 1;
            double b = n * (n - 1);
            saa += w * a * a;
            sab += w * a * b;
            sbb += w * b * b;
            say += w * a * y;
            sby += w * b * y;
        }
        double det = saa * sbb - sab * sab;
        Model best = new Model(lambda, 0, 0);
        if (det > 1e-12 * Math.max(1, saa * sbb)) {
            double sigma = (say * sbb - sby * sab) / det;
            double kappa = (sby * saa - say * sab) / det;
            if (sigma >= 0 && kappa >= 0) {
                return new Model(lambda, sigma, kappa);
            }
        }
        // on the boundary: one of the two is zero (or both)
        for (Model m : new Model[]{new Model(lambda, saa > 0 ? Math.max(0, say / saa) : 0, 0),
                new Model(lambda, 0, sbb > 0 ? Math.max(0, sby / sbb) : 0)}) {
            if (error(samples, m) < error(samples, best)) {
                best = m;
            }
        }
        return best;
    }

    /** The sum of squared throughput errors. */
    static double error(List<Sample> samples, Model m) {
        double sum = 0;
        for (Sample s : samples) {
            double e = s.tps() - m.throughput(s.connections());
            sum += e * e;
        }
        return sum;
    }
}
