package io.poolbudget.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The fleet benchmark's plot, drawn from its CSV alone (so the committed plot and table are the same runs): one
 * panel per fleet size and load, one bar per configuration for the median p99 of the runs on a log scale, a whisker
 * for the range, and the runs' acquire time-outs in red. java FleetPlot bench/results/fleet.csv
 */
final class FleetPlot {
    private static final int PW = 300;
    private static final int PH = 220;
    private static final int TOP = 60;
    private static final int LEFT = 60;
    private static final double LO = -1; // 0.1 ms
    private static final double HI = 4.3; // 20 s

    private FleetPlot() {}

    record Run(int pods, int load, String config, int perPod, double p99, long timeouts) {}

    public static void main(String[] args) throws java.io.IOException {
        Path csv = Path.of(args[0]);
        var line = Pattern.compile(
                "^(\\d+),(\\d+),(\\d+),\"([^\"]*)\",(\\d+),(\\d+),([^,]*),([^,]*),([^,]*),(\\d+),(\\d+),(\\d+),.*$");
        List<Run> runs = new ArrayList<>();
        for (String l : Files.readAllLines(csv)) {
            var m = line.matcher(l);
            if (m.matches()) {
                runs.add(new Run(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), m.group(4),
                        Integer.parseInt(m.group(5)), m.group(9).isEmpty() ? Double.POSITIVE_INFINITY
                                : Double.parseDouble(m.group(9)),
                        Long.parseLong(m.group(10)) + Long.parseLong(m.group(12))));
            }
        }
        Files.writeString(csv.resolveSibling("fleet.svg"), svg(runs));
    }

    static String svg(List<Run> runs) {
        List<Integer> fleets = runs.stream().map(Run::pods).distinct().toList();
        List<Integer> loads = runs.stream().map(Run::load).distinct().toList();
        int w = LEFT + loads.size() * PW + 20;
        int h = TOP + fleets.size() * PH + 40;
        var s = new StringBuilder(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                + "height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">%n<rect width=\"100%%\" height=\"100%%\" "
                + "fill=\"white\"/>%n<text x=\"%d\" y=\"22\" font-size=\"15\">p99 latency by pool configuration (median of "
                + "the runs, whisker: range; log scale 0.1 ms to 20 s)</text>%n<text x=\"%d\" y=\"40\" fill=\"#555\">rows: "
                + "simulated pods; columns: offered load as a share of the fleet's measured capacity; red: acquire "
                + "time-outs over all runs</text>%n", w, h, LEFT, LEFT));
        for (int r = 0; r < fleets.size(); r++) {
            for (int c = 0; c < loads.size(); c++) {
                int pods = fleets.get(r);
                int load = loads.get(c);
                Map<String, List<Run>> byConfig = new LinkedHashMap<>();
                runs.stream().filter(x -> x.pods() == pods && x.load() == load)
                        .forEach(x -> byConfig.computeIfAbsent(x.config(), k -> new ArrayList<>()).add(x));
                panel(s, LEFT + c * PW, TOP + r * PH, pods + " pods, " + load + " %", byConfig);
            }
        }
        return s.append("</svg>\n").toString();
    }

    private static void panel(StringBuilder s, int x0, int y0, String title, Map<String, List<Run>> byConfig) {
        int plotH = PH - 80;
        int plotW = PW - 30;
        double slot = (double) plotW / Math.max(1, byConfig.size());
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n", x0, y0 + 12,
                title));
        s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n", x0,
                y0 + 20 + plotH, x0 + plotW, y0 + 20 + plotH));
        for (double decade = 0; decade <= 4; decade += 2) { // 1 ms, 100 ms, 10 s
            double y = y(y0, plotH, Math.pow(10, decade));
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#777\" font-size=\"9\">%s</text>%n", x0, y,
                    x0 + plotW, y, x0 - 2, y + 3, decade == 0 ? "1 ms" : decade == 2 ? "100 ms" : "10 s"));
        }
        int i = 0;
        for (var e : byConfig.entrySet()) {
            double[] p99 = e.getValue().stream().mapToDouble(Run::p99).sorted().toArray();
            double median = p99[p99.length / 2];
            long timeouts = e.getValue().stream().mapToLong(Run::timeouts).sum();
            String label = label(e.getKey(), e.getValue().get(0).perPod());
            String color = label.startsWith("default") ? "#cf222e" : label.startsWith("plan") ? "#1a7f37" : "#0969da";
            double x = x0 + i * slot;
            double top = y(y0, plotH, median);
            s.append(
                    String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                            + "opacity=\"0.8\"/>%n", x + slot * 0.15, top, slot * 0.7, y0 + 20 + plotH - top, color));
            s.append(String.format(Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>%n",
                    x + slot / 2, y(y0, plotH, p99[0]), x + slot / 2, y(y0, plotH, p99[p99.length - 1])));
            s.append(String.format(Locale.ROOT,
                    "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"9\">%s</text>%n",
                    x + slot / 2, y0 + plotH + 32, label));
            if (timeouts > 0) {
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"9\" "
                        + "fill=\"#cf222e\">%d</text>%n", x + slot / 2, y0 + plotH + 44, timeouts));
            }
            i++;
        }
    }

    private static String label(String config, int perPod) {
        return config.startsWith("HikariCP") ? "default" : config.startsWith("plan") ? "plan " + perPod : "" + perPod;
    }

    private static double y(int y0, int plotH, double ms) {
        double v = Double.isFinite(ms) ? Math.log10(Math.max(ms, Math.pow(10, LO))) : HI;
        return y0 + 20 + plotH - (Math.min(v, HI) - LO) / (HI - LO) * plotH;
    }
}
