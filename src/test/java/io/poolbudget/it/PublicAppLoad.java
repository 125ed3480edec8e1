package io.poolbudget.it;

import io.poolbudget.it.PublicApps.App;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Load on the public apps' pages: per app, a number of clients, each sending one request at a time to the app's pods in
 * turn, every request reading the database. Started and stopped per app, so the load can move from one app to another.
 * Counts, per app, the requests served, those the app answered with an error (5xx: a caller its own pool timed out,
 * for one) and those that got no answer at all.
 */
final class PublicAppLoad implements AutoCloseable {
    /** Longer than either app's own pool time-out (HikariCP 30 s, Agroal in Quarkus 5 s): the app answers first. */
    private static final Duration REQUEST_TIME_OUT = Duration.ofSeconds(40);

    /** What one app's clients saw. */
    static final class Counts {
        final AtomicInteger served = new AtomicInteger();
        final AtomicInteger answeredWithError = new AtomicInteger();
        final AtomicInteger unanswered = new AtomicInteger();
        final AtomicReference<String> lastFailure = new AtomicReference<>("none");

        int failed() {
            return answeredWithError.get() + unanswered.get();
        }

        @Override
        public String toString() {
            return served.get() + " served, " + answeredWithError.get() + " answered with an error, " + unanswered.get()
                    + " unanswered (last failure: " + lastFailure.get() + ")";
        }
    }

    private record Clients(AtomicBoolean running, CountDownLatch done) {}

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        var t = new Thread(r, "public-app-load");
        t.setDaemon(true);
        return t;
    });
    private final Map<App, Counts> counts = new ConcurrentHashMap<>();
    private final Map<App, Clients> running = new ConcurrentHashMap<>();

    /** Starts {@code clients} clients on the app, sending to these addresses (its pods') in turn. */
    PublicAppLoad start(App app, List<String> addresses, int clients) {
        var started = new Clients(new AtomicBoolean(true), new CountDownLatch(clients));
        if (running.putIfAbsent(app, started) != null) {
            throw new IllegalStateException("load already runs on " + app.name());
        }
        Counts seen = counts(app);
        for (int c = 0; c < clients; c++) {
            int first = c;
            threads.submit(() -> {
                try {
                    for (int i = first; started.running().get(); i++) {
                        request(seen, "http://" + addresses.get(i % addresses.size()) + ":8080" + app.path());
                    }
                } finally {
                    started.done().countDown();
                }
            });
        }
        return this;
    }

    /** Stops the app's clients, and waits for the requests they have in flight. */
    void stop(App app) throws InterruptedException {
        Clients clients = running.remove(app);
        if (clients != null) {
            clients.running().set(false);
            clients.done().await(REQUEST_TIME_OUT.toSeconds() + 5, TimeUnit.SECONDS);
        }
    }

    Counts counts(App app) {
        return counts.computeIfAbsent(app, a -> new Counts());
    }

    private void request(Counts seen, String url) {
        try {
            var response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(REQUEST_TIME_OUT).build(),
                    HttpResponse.BodyHandlers.discarding());
            if (response.statusCode() < 400) { // petclinic answers a search with one owner by a redirect
                seen.served.incrementAndGet();
            } else {
                seen.answeredWithError.incrementAndGet();
                seen.lastFailure.set(url + ": HTTP " + response.statusCode());
            }
        } catch (IOException e) {
            seen.unanswered.incrementAndGet();
            seen.lastFailure.set(url + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (App app : List.copyOf(running.keySet())) {
            stop(app);
        }
        threads.shutdown();
        threads.awaitTermination(REQUEST_TIME_OUT.toSeconds() + 5, TimeUnit.SECONDS);
    }
}
