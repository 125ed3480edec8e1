package io.poolbudget.sizing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The knee of a repeated sweep, with its uncertainty. Curves are fitted (USL) to bootstrap resamples of the
 * measurements (each level's repeats drawn again with replacement); the recommendation is the median of their knees,
 * and the range the 10th to 90th percentile. The median of many fits moves less from run to run than the knee of one
 * fit, which flips wherever two levels are within the noise of the tolerance's edge.
 * The range also takes in every level whose fitted throughput lies within 1.28 standard errors (of a level's mean, from
 * the fit's residuals) of the tolerance's edge: a bootstrap of three repeats per level shows no more spread than those
 * three happened to have, and on a curve that only flattens it can report one level while another run picks a third.
 * A narrow range means another run would very likely recommend the same level; a wide one says the measurements cannot
 * tell those levels apart (run longer levels, or more repeats).
 *
 * @param connections the recommended level: the median knee of the resamples
 * @param fitted      the knee of the curve fitted to all measurements
 * @param low         the lowest knee among 80 % of the resamples (the 10th percentile), or lower where the noise allows
 * @param high        the highest knee among 80 % of the resamples (the 90th percentile), or higher where the noise allows
 * @param model       the curve fitted to all measurements
 * @param levels      the distinct levels measured, ascending
 */
public record KneeEstimate(int connections, int fitted, int low, int high, Usl.Model model, int[] levels) {
    public static final int ROUNDS = 200;
    /** Standard errors on each side of the tolerance's edge: 80 % of a normal spread, as the percentiles' range. */
    static final double Z = 1.28;

    /** @param seed fixes the resamples, so the same measurements always give the same estimate */
    public static KneeEstimate of(List<Usl.Sample> samples, double tolerance, long seed) {
        Map<Integer, List<Double>> byLevel = new TreeMap<>();
        for (Usl.Sample s : samples) {
            byLevel.computeIfAbsent(s.connections(), k -> new ArrayList<>()).add(s.tps());
        }
        if (byLevel.isEmpty()) {
            throw new IllegalArgumentException("an empty sweep has no knee");
        }
        int[] levels = byLevel.keySet().stream().mapToInt(Integer::intValue).toArray();
        Usl.Model model = Usl.fit(samples);
        int fitted = model.knee(levels, tolerance);
        int[] knees = new int[ROUNDS];
        Random random = new Random(seed);
        for (int r = 0; r < ROUNDS; r++) {
            List<Usl.Sample> resample = new ArrayList<>(samples.size());
            byLevel.forEach((n, tps) -> {
                for (int i = 0; i < tps.size(); i++) {
                    resample.add(new Usl.Sample(n, tps.get(random.nextInt(tps.size()))));
                }
            });
            knees[r] = Usl.fit(resample).knee(levels, tolerance);
        }
        Arrays.sort(knees);
        int low = knees[(int) Math.floor(0.1 * (ROUNDS - 1))];
        int high = knees[(int) Math.ceil(0.9 * (ROUNDS - 1))];
        int recommended = knees[ROUNDS / 2];
        // Resampling three repeats cannot show more spread than those three happened to have; the fit's own noise says
        // which levels lie too near the tolerance's edge to be told from it.
        double margin = noiseMargin(samples, model, levels.length);
        low = Math.min(Math.min(low, fitted), model.knee(levels, Math.min(0.99, tolerance + margin)));
        high = Math.max(Math.max(high, fitted), model.knee(levels, Math.max(0, tolerance - margin)));
        return new KneeEstimate(recommended, fitted, low, high, model, levels);
    }

    /**
     * {@link #Z} standard errors of a level's mean throughput, relative to the fitted curve: the residuals' relative spread
     * (three degrees of freedom go to the fit) over the square root of the repeats per level.
     */
    static double noiseMargin(List<Usl.Sample> samples, Usl.Model model, int levelCount) {
        int freedom = samples.size() - 3;
        if (freedom < 1) {
            return 0;
        }
        double sum = 0;
        for (Usl.Sample s : samples) {
            double expected = model.throughput(s.connections());
            double relative = (s.tps() - expected) / expected;
            sum += relative * relative;
        }
        double repeats = (double) samples.size() / levelCount;
        return Z * Math.sqrt(sum / freedom) / Math.sqrt(repeats);
    }

    /** How many levels apart two connection counts are among those measured (both must be levels). */
    public int levelsApart(int a, int b) {
        return Math.abs(indexOf(a) - indexOf(b));
    }

    private int indexOf(int n) {
        for (int i = 0; i < levels.length; i++) {
            if (levels[i] == n) {
                return i;
            }
        }
        throw new IllegalArgumentException(n + " is not a measured level");
    }

    /** The curve's best throughput over the measured levels, and where. */
    public Knee.Point bestFitted() {
        int at = levels[0];
        for (int n : levels) {
            if (model.throughput(n) > model.throughput(at)) {
                at = n;
            }
        }
        return new Knee.Point(at, model.throughput(at), Double.NaN);
    }
}
