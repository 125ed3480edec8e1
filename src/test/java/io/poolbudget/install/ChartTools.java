package io.poolbudget.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** helm, promtool and kubernetes-validate from hack/tools/build.sh (pinned, cached), and the chart's renders. */
public final class ChartTools {
    public static final Path CHART = Path.of("charts/poolbudget");
    private static Path bin;

    private ChartTools() {}

    public record Result(int exit, String output) {}

    public static synchronized Path bin() {
        if (bin == null) {
            var built = run(List.of("hack/tools/build.sh"));
            if (built.exit() != 0) {
                throw new IllegalStateException("hack/tools/build.sh failed:\n" + built.output());
            }
            var lines = built.output().strip().split("\n");
            bin = Path.of(lines[lines.length - 1]);
        }
        return bin;
    }

    public static Result helm(String... args) {
        var cmd = new ArrayList<String>();
        cmd.add(bin().resolve("helm").toString());
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    /** promtool, run in {@code dir} (a test file names its rule files relative to itself). */
    public static Result promtool(Path dir, String... args) {
        var cmd = new ArrayList<String>();
        cmd.add(bin().resolve("promtool").toString());
        cmd.addAll(List.of(args));
        return run(cmd, dir);
    }

    public static Result validate(Path file) {
        return run(
                List.of(bin().resolve("kubernetes-validate").toString(), "-k", "1.34.0", "--strict", file.toString()));
    }

    /** `helm template` of the chart with these --set values, as parsed documents; fails on a render error. */
    public static List<JsonNode> render(String namespace, String... sets) {
        var args = new ArrayList<>(List.of("template", "poolbudget", CHART.toString(), "--namespace", namespace));
        for (String s : sets) {
            args.add("--set");
            args.add(s);
        }
        var r = helm(args.toArray(String[]::new));
        if (r.exit() != 0) {
            throw new IllegalStateException("helm template failed: " + r.output());
        }
        return parse(r.output());
    }

    public static List<JsonNode> parse(String yaml) {
        try (var parser = new YAMLFactory().createParser(yaml)) {
            var docs = new ArrayList<JsonNode>();
            var it = new ObjectMapper().readValues(parser, JsonNode.class);
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
                    docs.add(doc);
                }
            }
            return docs;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Result run(List<String> cmd) {
        return run(cmd, null);
    }

    public static Result run(List<String> cmd, Path dir) {
        try {
            var p = new ProcessBuilder(cmd).directory(dir == null ? null : dir.toFile()).redirectErrorStream(true)
                    .start();
            var out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException(cmd + " did not finish in 30 minutes");
            }
            return new Result(p.exitValue(), out);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
