package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 21, item 2, on the packaged jar: with a kubeconfig whose API server is a local listener that counts every
 * request, no argument, --help, -h, a typo and version each end at once and send it nothing.
 */
class CommandLineIT {

    /** What one run did: whether it ended by itself, its exit code, its output, the API requests it sent. */
    private record Run(boolean ended, int exit, String output, int requests) {}

    private static Run run(String arg, int waitSeconds) throws Exception {
        return run(arg, waitSeconds, false);
    }

    /**
     * Runs the jar with the argument until it ends by itself, {@code waitSeconds} pass, or (with {@code untilCalled})
     * it sends its first request: an operator starts in seconds, but longer on a busy machine (CI starts the cluster
     * tiers' first classes at once).
     */
    private static Run run(String arg, int waitSeconds, boolean untilCalled) throws Exception {
        var requests = new AtomicInteger();
        var server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", x -> {
            requests.incrementAndGet();
            x.sendResponseHeaders(500, -1);
            x.close();
        });
        server.start();
        Path dir = Files.createTempDirectory("poolbudget-cli");
        try {
            Path kubeconfig = dir.resolve("kubeconfig");
            Files.writeString(kubeconfig, """
                    apiVersion: v1
                    kind: Config
                    clusters: [{name: c, cluster: {server: "http://127.0.0.1:%d"}}]
                    contexts: [{name: c, context: {cluster: c, user: u}}]
                    current-context: c
                    users: [{name: u, user: {token: t}}]
                    """.formatted(server.getAddress().getPort()));
            Path jar = Path.of(System.getProperty("poolbudget.app.jar", "target/quarkus-app/quarkus-run.jar"));
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-jar", jar.toString()));
            if (!arg.isEmpty()) {
                command.add(arg);
            }
            var pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("out").toFile());
            pb.environment().put("KUBECONFIG", kubeconfig.toString());
            pb.environment().put("POOLBUDGET_HTTP_PORT", "0");
            var process = pb.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds);
            boolean ended = false;
            while (!ended && System.nanoTime() < deadline && !(untilCalled && requests.get() > 0)) {
                ended = process.waitFor(200, TimeUnit.MILLISECONDS);
            }
            if (!ended) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            return new Run(ended, ended ? process.exitValue() : -1, Files.readString(dir.resolve("out")),
                    requests.get());
        } finally {
            server.stop(0);
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    @ParameterizedTest(name = "[{0}] -> exit {1}")
    @CsvSource(delimiter = '|', textBlock = """
            ''       | 2 | Usage: poolbudget [-hV] [COMMAND]
            --help   | 0 | Usage: poolbudget [-hV] [COMMAND]
            -h       | 0 | Usage: poolbudget [-hV] [COMMAND]
            plna     | 2 | Did you mean: poolbudget plan?
            version  | 0 | poolbudget 0.1.0
            """)
    void noCommandStartsAnOperatorOrCallsACluster(String arg, int exit, String text) throws Exception {
        var run = run(arg, 60);
        assertThat(run.ended()).as("ended by itself: " + run.output()).isTrue();
        assertThat(run.exit()).as(run.output()).isEqualTo(exit);
        assertThat(run.output()).contains(text);
        assertThat(run.requests()).as("requests to the API server").isZero();
    }

    /** The check can fail: the word operator does start one, and it calls the API server at once. */
    @org.junit.jupiter.api.Test
    void theWordOperatorStartsOneThatCallsTheCluster() throws Exception {
        var run = run("operator", 90, true);
        assertThat(run.requests()).as("requests to the API server; output: " + run.output()).isPositive();
    }
}
