package io.poolbudget.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.poolbudget.api.v1alpha1.TargetStatus;
import io.prometheus.client.exporter.common.TextFormat;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** /q/metrics written in chunks says what Quarkus' whole-string scrape says, in both formats. */
class MetricsEndpointTest {
    private static final PrometheusMeterRegistry REGISTRY = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private static Vertx vertx;
    private static HttpServer server;

    @BeforeAll
    static void serve() throws Exception {
        var metrics = new PolicyMetrics(REGISTRY, Clock.fixed(Instant.parse("2026-11-22T10:00:00Z"), ZoneOffset.UTC));
        // 300 policies of 10 targets: ~0.4 MB of text, several chunks
        for (int p = 0; p < 300; p++) {
            TargetStatus[] targets = IntStream.range(0, 10)
                    .mapToObj(t -> PolicyMetricsTest.target("svc-" + t, 2, 3, 4, 3))
                    .toArray(TargetStatus[]::new);
            metrics.record("scale-" + p, "db", "orders", PolicyMetricsTest.status(200, 120, targets));
        }
        metrics.reconciled();
        vertx = Vertx.vertx();
        Router router = Router.router(vertx);
        MetricsEndpoint.route(router, "/q/metrics", REGISTRY);
        server = vertx.createHttpServer().requestHandler(router).listen(0).toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void theTextFormatComesInChunksAndSaysWhatTheWholeScrapeSays() throws Exception {
        var response = get("", "text/plain");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue(TextFormat.CONTENT_TYPE_004);
        assertThat(response.headers().firstValue("transfer-encoding")).hasValue("chunked");
        assertThat(response.body()).hasSizeGreaterThan(4 * MetricsEndpoint.CHUNK)
                .isEqualTo(REGISTRY.scrape(TextFormat.CONTENT_TYPE_004));
    }

    @Test
    void aClientThatUpgradesToHttp2GetsTheWholeScrapeToo() throws Exception {
        // and, asking for no format, OpenMetrics, as Quarkus' handler answers
        var response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:"
                + server.actualPort() + "/q/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(response.headers().firstValue("content-type")).hasValue(TextFormat.CONTENT_TYPE_OPENMETRICS_100);
        assertThat(response.body()).isEqualTo(REGISTRY.scrape(TextFormat.CONTENT_TYPE_OPENMETRICS_100));
    }

    @Test
    void openMetricsIsAnsweredWhenAsked() throws Exception {
        var response = get("", "application/openmetrics-text; version=1.0.0");
        assertThat(response.headers().firstValue("content-type")).hasValue(TextFormat.CONTENT_TYPE_OPENMETRICS_100);
        assertThat(response.body()).isEqualTo(REGISTRY.scrape(TextFormat.CONTENT_TYPE_OPENMETRICS_100))
                .endsWith("# EOF\n");
    }

    @Test
    void namesFilterTheScrape() throws Exception {
        var body = get("?name[]=poolbudget_policies", "text/plain").body();
        assertThat(body.lines().filter(l -> !l.startsWith("#"))).containsExactly("poolbudget_policies 300.0");
    }

    @Test
    void theFormatIsChosenAsQuarkusChoosesIt() {
        assertThat(MetricsEndpoint.contentType(null)).isEqualTo(TextFormat.CONTENT_TYPE_OPENMETRICS_100);
        assertThat(MetricsEndpoint.contentType("application/openmetrics-text;version=1.0.0,"
                + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"))
                .as("Prometheus' own Accept names text/plain too").isEqualTo(TextFormat.CONTENT_TYPE_004);
        assertThat(MetricsEndpoint.contentType("text/html")).isEqualTo(TextFormat.CONTENT_TYPE_004);
        assertThat(MetricsEndpoint.contentType("*/*")).isEqualTo(TextFormat.CONTENT_TYPE_OPENMETRICS_100);
    }

    @Test
    void aRelativePathIsUnderTheNonApplicationRoot() {
        assertThat(MetricsEndpoint.path("q", "metrics")).isEqualTo("/q/metrics");
        assertThat(MetricsEndpoint.path("/q/", "metrics")).isEqualTo("/q/metrics");
        assertThat(MetricsEndpoint.path("q", "/metrics")).isEqualTo("/metrics");
    }

    private static HttpResponse<String> get(String query, String accept) throws Exception {
        // HTTP/1.1, as Prometheus scrapes (the JDK's client would otherwise upgrade to HTTP/2, which has no chunks)
        var client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        return client.send(HttpRequest.newBuilder(URI.create("http://localhost:" + server.actualPort() + "/q/metrics"
                + query.replace("[", "%5B").replace("]", "%5D"))).header("Accept", accept).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
