package io.poolbudget.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The packaged operator ({@code target/quarkus-app/quarkus-run.jar}) running as its own process
 * against the test cluster, as it runs in production. Tests can stop and restart it.
 */
public final class OperatorProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Process process;
    private final Path log;
    private final int port;

    private OperatorProcess(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /** Starts the operator and returns once it reports ready; extra environment variables configure it. */
    public static OperatorProcess start(TestCluster cluster, String name, Map<String, String> env) {
        Path jar = Path.of(System.getProperty("poolbudget.app.jar", "target/quarkus-app/quarkus-run.jar"));
        if (!Files.isReadable(jar)) {
            throw new IllegalStateException(
                    jar + " is missing: run the ITs through ./mvnw verify, which packages it first");
        }
        try {
            Path logDir = Files.createDirectories(Path.of(System.getProperty("poolbudget.log.dir", "target/it-logs")));
            Path log = logDir.resolve("operator-" + name + "-" + Instant.now().toEpochMilli() + ".log");
            int port = freePort();
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-jar",
                    jar.toString(), "operator"));
            var builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().put("KUBECONFIG", cluster.kubeconfig().toString());
            builder.environment().put("POOLBUDGET_HTTP_PORT", Integer.toString(port));
            builder.environment().putAll(env);
            var operator = new OperatorProcess(builder.start(), log, port);
            operator.awaitReady();
            return operator;
        } catch (IOException e) {
            throw new IllegalStateException("could not start the operator: " + e.getMessage(), e);
        }
    }

    public static OperatorProcess start(TestCluster cluster, String name) {
        return start(cluster, name, Map.of());
    }

    private void awaitReady() {
        var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        var ready = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/q/health/ready"))
                .timeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the operator exited with code " + process.exitValue()
                        + " before it was ready; its log " + log + " ends with:\n" + tail());
            }
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the operator", e);
            }
            sleep(250);
        }
        stop();
        throw new IllegalStateException("the operator was not ready within " + START_TIMEOUT + "; its log " + log
                + " ends with:\n" + tail());
    }

    public int port() {
        return port;
    }

    public Path log() {
        return log;
    }

    /** SIGKILL: the operator gets no chance to finish anything. */
    public void kill() {
        try {
            process.destroyForcibly().waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Graceful stop (SIGTERM), as Kubernetes stops a pod; SIGKILL after 20 s. */
    public void stop() {
        process.destroy();
        try {
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
    }

    public String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
