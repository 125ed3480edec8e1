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
 * A narrow range means another run would very likely recommend the same level; a wide one says the measurements cannot
 * tell those levels apart (run longer levels, or more repeats).
 *
 * @param connections the recommended level: the median knee of the resamples
 * @param fitted      the knee of the curve fitted to all measurements
 * @param low         the lowest knee among 80 % of the resamples (the 10th percentile)
 * @param high        the highest knee among 80 % of the resamples (the 90th percentile)
 * @param model       the curve fitted to all measurements
 * @param levels      the distinct levels measured, ascending
 */
public record KneeEstimate(int connections, int fitted, int low, int high, Usl.Model model, int[] levels) {
    public static final int ROUNDS = 200;

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
        return new KneeEstimate(recommended, fitted, Math.min(low, fitted), Math.max(high, fitted), model, levels);
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
