package io.poolbudget.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One scrape of the operator's /q/metrics, parsed from the Prometheus text format. */
record Scrape(List<Sample> samples) {
    record Sample(String name, Map<String, String> labels, double value) {}

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

    /**
     * One client for every request the tests send the operator, in HTTP/1.1 as Prometheus scrapes: the JDK's default
     * upgrade to HTTP/2 once garbled a large streamed /q/metrics in the suite.
     */
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    static Scrape of(int port) {
        try {
            var response = HTTP.send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + port + "/q/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError("/q/metrics answered " + response.statusCode());
            }
            return parse(response.body());
        } catch (IOException e) {
            throw new AssertionError("could not scrape the operator: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    static Scrape parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            Matcher m = LINE.matcher(line);
            if (line.startsWith("#") || !m.find()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
        }
        return new Scrape(samples);
    }

    Set<String> names() {
        Set<String> names = new TreeSet<>();
        samples.forEach(s -> names.add(s.name()));
        return names;
    }

    /** The value of the one sample with this name whose labels include these; NaN-safe; null if none. */
    Double value(String name, Map<String, String> labels) {
        List<Sample> found = samples.stream().filter(s -> s.name().equals(name)
                && s.labels().entrySet().containsAll(labels.entrySet())).toList();
        if (found.size() > 1) {
            throw new AssertionError(found.size() + " series of " + name + " match " + labels + ": " + found);
        }
        return found.isEmpty() ? null : found.get(0).value();
    }

    List<Sample> withLabel(String label, String value) {
        return samples.stream().filter(s -> value.equals(s.labels().get(label))).toList();
    }
}
