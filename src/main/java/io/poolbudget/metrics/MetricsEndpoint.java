package io.poolbudget.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.prometheus.client.exporter.common.TextFormat;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The Prometheus endpoint ({@code /q/metrics}), written while it is scraped. Quarkus' own handler renders a scrape
 * into a builder, one String and then one buffer before it sends a byte: at 10,000 targets that is ~11 MB of text,
 * held several times over on top of the live set at every scrape, whenever Prometheus asks (during a restart too,
 * when the live set is largest). This route answers the same path ahead of it, and chooses the format
 * as Quarkus' handler does; it writes the text in chunks of 64 KiB as the Prometheus client produces it, on a worker
 * thread that waits while the connection's write queue is full.
 */
@ApplicationScoped
public class MetricsEndpoint {
    static final int CHUNK = 64 * 1024;
    private static final long DRAIN_TIMEOUT_SECONDS = 10;

    private final MeterRegistry registry;
    private final String path;

    MetricsEndpoint(MeterRegistry registry,
            @ConfigProperty(name = "quarkus.http.non-application-root-path", defaultValue = "q") String root,
            @ConfigProperty(name = "quarkus.micrometer.export.prometheus.path", defaultValue = "metrics") String path) {
        this.registry = registry;
        this.path = path(root, path);
    }

    /** Where Quarkus serves the registry: a relative path is under the non-application root. */
    static String path(String root, String path) {
        if (path.startsWith("/")) {
            return path;
        }
        String r = root.startsWith("/") ? root : "/" + root;
        return (r.endsWith("/") ? r : r + "/") + path;
    }

    void routes(@Observes Router router) {
        List<PrometheusMeterRegistry> prometheus = StatusCollector.prometheusRegistries(registry);
        if (!prometheus.isEmpty()) {
            route(router, path, prometheus.get(0));
        }
    }

    static void route(Router router, String path, PrometheusMeterRegistry prometheus) {
        router.get(path).order(-100).blockingHandler(ctx -> scrape(ctx, prometheus), false);
    }

    /**
     * The format Quarkus' handler chooses: the text format 0.0.4 when the client names text/plain or text/html (as
     * Prometheus does among others), OpenMetrics otherwise, also when it sends no Accept.
     */
    static String contentType(String accept) {
        return accept != null && (accept.contains("text/plain") || accept.contains("text/html"))
                ? TextFormat.CONTENT_TYPE_004 : TextFormat.CONTENT_TYPE_OPENMETRICS_100;
    }

    private static void scrape(RoutingContext ctx, PrometheusMeterRegistry prometheus) {
        String type = contentType(ctx.request().getHeader(HttpHeaders.ACCEPT));
        List<String> names = ctx.queryParam("name[]");
        HttpServerResponse response = ctx.response().setChunked(true).putHeader(HttpHeaders.CONTENT_TYPE, type);
        try (Writer out = new OutputStreamWriter(new BufferedOutputStream(new Chunks(response), CHUNK),
                StandardCharsets.UTF_8)) {
            prometheus.scrape(out, type, names.isEmpty() ? null : new HashSet<>(names));
        } catch (IOException e) {
            response.reset(); // the scraper is gone, or stopped reading: nothing more to send
            return;
        } catch (RuntimeException e) {
            response.reset(); // part of the text is out: cut the connection rather than end a truncated scrape
            throw e;
        }
        response.end();
    }

    /** Bytes to the response, one write per chunk; waits while the connection's write queue is full. */
    private static final class Chunks extends OutputStream {
        private final HttpServerResponse response;

        Chunks(HttpServerResponse response) {
            this.response = response;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[]{(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (response.closed()) {
                throw new IOException("the scraper closed the connection");
            }
            awaitRoom();
            response.write(Buffer.buffer(len).appendBytes(b, off, len));
        }

        private void awaitRoom() throws IOException {
            if (!response.writeQueueFull()) {
                return;
            }
            CompletableFuture<Void> drained = new CompletableFuture<>();
            response.drainHandler(v -> drained.complete(null));
            if (!response.writeQueueFull()) {
                return;
            }
            try {
                drained.get(DRAIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new IOException("the scraper read nothing for " + DRAIN_TIMEOUT_SECONDS + " s", e);
            } catch (ExecutionException e) {
                throw new IOException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while the scraper was reading");
            }
        }
    }
}
