package io.poolbudget.bench;

import java.util.List;
import java.util.Locale;

/** One SVG for the benchmark: TPS per configuration as bars, p99 on a log scale as dots, the offered rate dashed. */
final class BenchPlot {
    private static final int W = 900;
    private static final int H = 420;
    private static final int L = 70;
    private static final int R = 80;
    private static final int T = 50;
    private static final int B = 110;

    private BenchPlot() {}

    /** Redraws the plots from a run's CSV: java BenchPlot bench/results/pool-sizes.csv */
    public static void main(String[] args) throws java.io.IOException {
        var csv = java.nio.file.Path.of(args[0]);
        var byRate = new java.util.LinkedHashMap<Long, java.util.List<OpenModel.Result>>();
        var lines = java.nio.file.Files.readAllLines(csv);
        for (String line : lines.subList(1, lines.size())) {
            var m = java.util.regex.Pattern.compile("^(\\d+),\"([^\"]*)\",(.*)$").matcher(line);
            if (!m.matches()) {
                continue;
            }
            String[] f = m.group(3).split(",", -1);
            byRate.computeIfAbsent(Long.parseLong(m.group(1)), k -> new java.util.ArrayList<>())
                    .add(new OpenModel.Result(
                            m.group(2), Integer.parseInt(f[0]), Integer.parseInt(f[1]), Double.parseDouble(f[2]),
                            Double.parseDouble(f[3]),
                            f[4].isEmpty() ? Double.POSITIVE_INFINITY : Double.parseDouble(f[4]),
                            Long.parseLong(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]), Integer.parseInt(f[8]),
                            Double.parseDouble(f[9])));
        }
        for (var e : byRate.entrySet()) {
            java.nio.file.Files.writeString(csv.resolveSibling("pool-sizes-" + e.getKey() + ".svg"),
                    svg(e.getValue(), e.getKey()));
        }
    }

    static String svg(List<OpenModel.Result> results, double rate) {
        double maxTps = Math.max(rate, results.stream().mapToDouble(OpenModel.Result::tps).max().orElse(1)) * 1.15;
        double minP99 = results.stream().mapToDouble(OpenModel.Result::p99).filter(Double::isFinite).min().orElse(1);
        double maxP99 = results.stream().mapToDouble(OpenModel.Result::p99).filter(Double::isFinite).max().orElse(10);
        double lo = Math.floor(Math.log10(Math.max(0.01, minP99)));
        double hi = Math.ceil(Math.log10(Math.max(maxP99, minP99 * 10)));
        int plotH = H - T - B;
        double slot = (double) (W - L - R) / results.size();
        var s = new StringBuilder(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                + "height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">%n<rect width=\"100%%\" height=\"100%%\" "
                + "fill=\"white\"/>%n<text x=\"%d\" y=\"24\" font-size=\"15\">Same offered load (%.0f requests/s), "
                + "different pool sizes: throughput (bars) and p99 latency (dots, log scale)</text>%n", W, H, L, rate));
        double yRate = T + plotH - rate / maxTps * plotH;
        s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#555\" "
                + "stroke-dasharray=\"5 4\"/><text x=\"%d\" y=\"%.1f\" fill=\"#555\">offered</text>%n", L, yRate, W - R,
                yRate,
                W - R + 4, yRate + 4));
        for (int i = 0; i < results.size(); i++) {
            var r = results.get(i);
            String color = i == 0 ? "#cf222e" : i == 1 ? "#bf8700" : i == 2 ? "#1a7f37" : "#0969da";
            double x = L + i * slot;
            double h = r.tps() / maxTps * plotH;
            s.append(
                    String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                            + "opacity=\"0.75\"/>%n", x + slot * 0.15, T + plotH - h, slot * 0.7, h, color));
            s.append(String.format(Locale.ROOT,
                    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">%.0f"
                            + "</text>%n",
                    x + slot / 2, T + plotH - h - 4, r.tps()));
            String name = i == 0 ? "default" : i == 1 ? "formula" : i == 2 ? "calibrated" : "sweep";
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%d x %d</text>%n", x + slot / 2,
                    H - B + 16, name, x + slot / 2, H - B + 32, r.total() / r.perPod(), r.perPod()));
            if (r.timeouts() > 0) {
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#cf222e\">"
                        + "%d time-outs</text>%n", x + slot / 2, H - B + 48, r.timeouts()));
            }
            double p = Double.isFinite(r.p99()) ? r.p99() : Math.pow(10, hi);
            double y = T + plotH - (Math.log10(Math.max(p, Math.pow(10, lo))) - lo) / (hi - lo) * plotH;
            s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#000\"/>"
                    + "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%s</text>%n", x + slot / 2, y, x + slot / 2 + 7,
                    y + 4,
                    OpenModel.ms(r.p99())));
        }
        s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n", L,
                T + plotH,
                W - R, T + plotH));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f TPS</text>%n", L - 4,
                T + 4,
                maxTps));
        s.append(
                String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>%n", L - 4, T + plotH));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#555\">dots: p99 on a log scale from %s "
                + "(bottom) to %s (top)</text>%n", L, H - B + 72, OpenModel.ms(Math.pow(10, lo)),
                OpenModel.ms(Math.pow(10, hi))));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#555\">pods x connections per pod</text>%n",
                L, H - B + 88));
        return s.append("</svg>\n").toString();
    }
}
