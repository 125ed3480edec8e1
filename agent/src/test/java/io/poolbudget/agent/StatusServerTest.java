package io.poolbudget.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status port's question "answer when I start to starve": answered within a sample of the starvation, at once when
 * the pod already starves, after the wait asked (never more than {@link StatusServer#MAX_WAIT_MS}) when it does not,
 * and at once for any request that does not ask it plainly; a new size applied answers it too, and plain reads are
 * served while it waits.
 */
class StatusServerTest {
    private final List<Pools.Pool> pools = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();
    private static final long CAP_MS = 1_500;
    private Demand demand;
    private Resizer resizer;
    private Path file;
    private StatusServer server;

    @BeforeEach
    void start(@TempDir Path dir) throws Exception {
        demand = new Demand(() -> pools, System::nanoTime);
        file = dir.resolve("size");
        resizer = new Resizer(file, () -> pools, n -> {});
        server = new StatusServer(0, resizer, demand, CAP_MS);
        server.start();
    }

    @Test
    void aReaderWaitingForStarvationIsAnsweredAsSoonAsASampleIsAboveTheSize() throws Exception {
        var pool = new DemandTest.Counts();
        pool.active = 2;
        pools.add(pool);
        demand.sample();
        var answer = ask("/?over=2&waitMs=2000");
        Thread.sleep(300);
        assertThat(answer).as("saturated (2 of 2 in use), not starving: no answer yet").isNotDone();
        pool.awaiting = 1;
        long before = System.nanoTime();
        demand.sample();
        assertThat(answer.get(1, TimeUnit.SECONDS)).contains("\"demand\":3");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before)).as("answered at the sample")
                .isLessThan(500);
        long again = System.nanoTime();
        assertThat(ask("/?over=2&waitMs=2000").get(1, TimeUnit.SECONDS)).as("already starving: at once")
                .contains("\"demand\":3");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - again)).isLessThan(500);
    }

    @Test
    void aPodThatDoesNotStarveIsAnsweredAfterTheWaitAskedAndNeverLaterThanTheCap() throws Exception {
        var pool = new DemandTest.Counts();
        pool.active = 1;
        pools.add(pool);
        demand.sample();
        long start = System.nanoTime();
        ask("/?over=4&waitMs=400").get(2, TimeUnit.SECONDS);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(380L, 1_500L);
        start = System.nanoTime();
        ask("/?over=4&waitMs=999999").get(CAP_MS + 2_000, TimeUnit.MILLISECONDS);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("capped")
                .isBetween(CAP_MS - 20, CAP_MS + 1_000);
    }

    @Test
    void aWatchIsAnsweredWhenThePublishedSizeIsAppliedAndPlainReadsAreServedWhileItWaits() throws Exception {
        var pool = new DemandTest.Counts();
        pools.add(pool);
        demand.sample();
        var watch = ask("/?over=4&waitMs=1400");
        Thread.sleep(200);
        long start = System.nanoTime();
        assertThat(ask("/").get(1, TimeUnit.SECONDS)).as("a plain read while a watch waits").startsWith("{");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(500);
        assertThat(watch).isNotDone();
        java.nio.file.Files.writeString(file, "10");
        resizer.tick();
        assertThat(watch.get(500, TimeUnit.MILLISECONDS)).as("a new size applied: answered")
                .startsWith("{\"published\":10,\"confirmed\":true");
    }

    @Test
    void watchesBeyondTheirSlotsAreAnsweredAtOnce() throws Exception {
        pools.add(new DemandTest.Counts());
        demand.sample();
        List<CompletableFuture<String>> held = new ArrayList<>();
        for (int i = 0; i < StatusServer.WATCHES; i++) {
            held.add(ask("/?over=9&waitMs=1400"));
        }
        Thread.sleep(300);
        long start = System.nanoTime();
        assertThat(ask("/?over=9&waitMs=1400").get(1, TimeUnit.SECONDS)).startsWith("{");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(500);
        assertThat(held).noneMatch(CompletableFuture::isDone);
    }

    @Test
    void aRequestThatDoesNotAskPlainlyIsAnsweredAtOnce() throws Exception {
        for (String path : List.of("/", "/?over=4", "/?waitMs=2000", "/?over=x&waitMs=2000", "/?over=-1&waitMs=2000",
                "/?over=4&waitMs=1e9", "/?xover=4&waitMs=2000", "/?over=4&waitMs=20000000000")) {
            long start = System.nanoTime();
            assertThat(ask(path).get(2, TimeUnit.SECONDS)).as(path).startsWith("{\"published\"");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as(path).isLessThan(1_000);
        }
    }

    @Test
    void theRequestLineIsReadUpToItsEndAndAtMost512Characters() throws Exception {
        String line = StatusServer.readRequestLine(new ByteArrayInputStream(
                "GET /?over=3&waitMs=10 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
        assertThat(line).isEqualTo("GET /?over=3&waitMs=10 HTTP/1.1");
        String longLine = StatusServer.readRequestLine(new ByteArrayInputStream(
                ("GET /" + "a".repeat(5000) + " HTTP/1.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII)));
        assertThat(longLine).hasSize(512);
    }

    private CompletableFuture<String> ask(String path) {
        return http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString()).thenApply(HttpResponse::body);
    }
}
