package io.poolbudget.cli;

import io.poolbudget.sizing.Knee;
import java.util.List;
import java.util.Locale;

/** An SVG plot of a sweep: throughput (bars' line) and p99 latency per connection count, knee marked. */
final class SweepPlot {
    private static final int W = 720;
    private static final int H = 360;
    private static final int L = 70;
    private static final int R = 70;
    private static final int T = 40;
    private static final int B = 50;

    private SweepPlot() {}

    static String svg(List<LoadSweep.Level> levels, Knee.Point knee) {
        double maxTps = levels.stream().mapToDouble(LoadSweep.Level::tps).max().orElse(1) * 1.1;
        double maxP99 = levels.stream().mapToDouble(LoadSweep.Level::p99Millis).filter(Double::isFinite).max().orElse(1)
                * 1.1;
        int n = levels.size();
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n",
                W, H));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\">Throughput and p99 latency by "
                + "connections (knee: %d)</text>%n", L, knee.connections()));
        s.append(line(L, H - B, W - R, H - B, "#333")).append(line(L, T, L, H - B, "#0969da"))
                .append(line(W - R, T, W - R, H - B, "#cf222e"));
        StringBuilder tps = new StringBuilder();
        StringBuilder p99 = new StringBuilder();
        for (int i = 0; i < n; i++) {
            var l = levels.get(i);
            double x = L + (n == 1 ? 0.5 : (double) i / (n - 1)) * (W - L - R);
            double yt = H - B - l.tps() / maxTps * (H - T - B);
            double yp = H - B - (Double.isFinite(l.p99Millis()) ? l.p99Millis() : 0) / maxP99 * (H - T - B);
            tps.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, yt));
            p99.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, yp));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>%n", x,
                    H - B + 16,
                    l.connections()));
            if (l.connections() == knee.connections()) {
                s.append(String.format(Locale.ROOT,
                        "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#1a7f37\" "
                                + "stroke-dasharray=\"4 3\"/>%n<text x=\"%.1f\" y=\"%d\" fill=\"#1a7f37\">knee</text>%n",
                        x, T, x, H - B, x + 4, T + 12));
            }
        }
        s.append(String.format("<polyline fill=\"none\" stroke=\"#0969da\" stroke-width=\"2\" points=\"%s\"/>%n", tps));
        s.append(String.format("<polyline fill=\"none\" stroke=\"#cf222e\" stroke-width=\"2\" points=\"%s\"/>%n", p99));
        s.append(String.format(Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" fill=\"#0969da\" text-anchor=\"end\">%.0f TPS</text>%n",
                L - 4, T + 4, maxTps));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#cf222e\">%.1f ms p99</text>%n",
                W - R + 4, T + 4, maxP99));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">connections</text>%n",
                (W + L - R) / 2, H - 12));
        return s.append("</svg>\n").toString();
    }

    private static String line(int x1, int y1, int x2, int y2, String color) {
        return String.format("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>%n", x1, y1, x2, y2, color);
    }
}
