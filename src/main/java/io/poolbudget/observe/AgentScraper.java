package io.poolbudget.observe;

import io.fabric8.kubernetes.api.model.Pod;
import io.poolbudget.decide.AgentReport;
import io.poolbudget.decide.LiveResize;
import io.poolbudget.planning.Owner;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * Resize mode Live: asks the agent in each pod the operator published a live size to what it applied ({@code GET
 * http://<pod IP>:9477/}, read-only; the pods write nothing anywhere and need no permission). Once a second while a
 * pod has not confirmed the size published to it, is saturated (its demand at least that size) or belongs to a target
 * that lends connections ({@link #readClosely}), every 10 s otherwise (the agent's demand is the high of its last 10 s,
 * so no burst falls between two reads). A saturated or watched pod ({@link #readClosely}: the pods of targets whose
 * sizes follow demand) that does not starve is watched instead ({@link #watches}): its agent is asked to answer when
 * the pod starts to starve, its size changes, or after {@link #WATCH_MS} ({@code GET /?over=<its size>&waitMs=5000}),
 * and asked again as soon as it answers, so the operator hears of a starving pod within the agent's sample (100 ms),
 * not at its next read. An agent that does not know the question answers at once, as to a plain read, and is asked
 * again at the next tick. Keeps each pod's last report (by uid) for the passes to read, outside the reconcile, and
 * wakes a pod's policy when its report changes other than in its demand, or when the pod starts to starve
 * ({@link #wakes}).
 */
@Singleton
public final class AgentScraper implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(AgentScraper.class);
    static final long CONFIRMED_EVERY_MS = 10_000;
    private static final Duration TIMEOUT = Duration.ofMillis(1500);
    /** The longest an agent is asked to wait for its pod to starve (or its size to change) before it answers. */
    static final long WATCH_MS = 5_000;
    /** A watch answered sooner than this was not waited on (an agent that does not know the question). */
    private static final long ANSWERED_AT_ONCE_NS = TimeUnit.MILLISECONDS.toNanos(50);

    /**
     * One pod's last report, with when it was read, its namespace, the size its {@code since} counts for, and the size
     * published to the pod when it was read (null: none readable).
     */
    record Entry(AgentReport report, long at, String namespace, Integer forSize, Integer published) {}

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    /** Per policy (namespace/key): the pods its last pass asked to be read every second (those lending). */
    private final Map<String, Set<String>> closely = new ConcurrentHashMap<>();
    private volatile Set<String> readClosely = Set.of();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    /** Asks one agent: its status address and a time-out in, the answer's body out (or the error it failed with). */
    private final BiFunction<URI, Duration, CompletableFuture<String>> ask;
    /** The pods whose agents are answering when they starve ({@link #watches}); not asked again until they answer. */
    private final Set<String> watching = ConcurrentHashMap.newKeySet();
    private ScheduledExecutorService timer;
    private volatile long lastNow;
    private volatile boolean closed;

    public AgentScraper() {
        this.ask = (uri, timeout) -> http.sendAsync(HttpRequest.newBuilder(uri).timeout(timeout).GET().build(),
                HttpResponse.BodyHandlers.ofString()).thenApply(HttpResponse::body);
    }

    /** Agents that answer as {@code ask} does (tests). */
    AgentScraper(Function<URI, CompletableFuture<String>> ask) {
        this.ask = (uri, timeout) -> ask.apply(uri);
    }

    /**
     * Starts asking: {@code pods} are the sized pods as cached, {@code wake} is told (namespace, policy key) when a
     * report of a pod carrying that policy's live size wakes it ({@link #wakes}).
     */
    public synchronized void start(Supplier<Stream<Pod>> pods, BiConsumer<String, String> wake) {
        if (timer != null) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "poolbudget-agent-reports");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                tick(pods.get().toList(), wake, System.currentTimeMillis());
            } catch (RuntimeException e) { // a timer task that throws is never run again: log, try next second
                LOG.warnf("reading the live-resize agents failed, retried in a second: %s", e);
            }
        }, 1, 1, TimeUnit.SECONDS);
    }

    /** The last reports of the pods in {@code namespace}, by pod uid. */
    public Map<String, AgentReport> reports(String namespace) {
        return entries.entrySet().stream().filter(e -> e.getValue().namespace().equals(namespace))
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().report()));
    }

    /** A pod's last report (by uid), or null. */
    public AgentReport report(String uid) {
        Entry e = entries.get(uid);
        return e == null ? null : e.report();
    }

    void tick(List<Pod> pods, BiConsumer<String, String> wake, long now) {
        lastNow = now;
        Set<String> seen = new HashSet<>();
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (Pod p : pods) {
            String key = liveKey(p);
            String ip = p.getStatus() == null ? null : p.getStatus().getPodIP();
            if (key == null || ip == null) {
                continue;
            }
            String uid = p.getMetadata().getUid();
            seen.add(uid);
            Integer published = LiveResize.published(p.getMetadata(), new Owner(key));
            Entry last = entries.get(uid);
            boolean watched = readClosely.contains(uid);
            if (watching.contains(uid) || !due(last, published, now, watched)) {
                continue;
            }
            var call = read(p, key, published, last, watched, now, wake);
            if (call != null) { // an agent watching its pod answers on its own time: the tick does not wait for it
                calls.add(call);
            }
        }
        try {
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(3, TimeUnit.SECONDS);
        } catch (Exception e) { // a slow pod is read again next second
            LOG.debugf("some agents did not answer in time: %s", e);
        }
        entries.keySet().retainAll(seen);
    }

    /**
     * Whether a pod is read this second: on its first second, while it has not confirmed the size published to it, while
     * it is saturated (a starving pod is seen within a second), while its size follows demand ({@code watched}:
     * one whose load grows is seen within a second), and every {@link #CONFIRMED_EVERY_MS} otherwise.
     */
    static boolean due(Entry last, Integer published, long now, boolean watched) {
        return last == null || !last.report().confirmed() || !Objects.equals(last.report().published(), published)
                || saturated(last.report(), published) || watched || now - last.at() >= CONFIRMED_EVERY_MS;
    }

    /**
     * Reads a pod's agent: a plain read (its call returned, for the tick to wait on) or a watch ({@link #watches}; null
     * returned), asked again as soon as it answers while the pod still watches, so no starvation falls between two.
     * An agent that answers a watch at once (one that does not know the question) is asked again at the next tick.
     */
    private CompletableFuture<Void> read(Pod p, String key, Integer published, Entry last, boolean watched, long now,
            BiConsumer<String, String> wake) {
        String uid = p.getMetadata().getUid();
        String ns = p.getMetadata().getNamespace();
        String ip = p.getStatus().getPodIP();
        boolean watch = watches(last, published, watched);
        URI agent = URI.create("http://" + (ip.contains(":") ? "[" + ip + "]" : ip) + ":" + LiveResize.AGENT_PORT
                + "/" + (watch ? "?over=" + published + "&waitMs=" + WATCH_MS : ""));
        if (watch) {
            watching.add(uid);
        }
        long asked = System.nanoTime();
        var call = ask.apply(agent, watch ? TIMEOUT.plusMillis(WATCH_MS) : TIMEOUT).handle((body, error) -> {
            AgentReport report = AgentAnswers.report(body, error, published, last, ready(p) ? now : 0);
            Entry entry = new Entry(report, now, ns, report.since() == 0 ? null : published, published);
            entries.put(uid, entry);
            if (wakes(last, report, published)) {
                wake.accept(ns, key);
            }
            boolean again = watch && !closed && System.nanoTime() - asked >= ANSWERED_AT_ONCE_NS
                    && watches(entry, published, readClosely.contains(uid));
            if (again) {
                read(p, key, published, entry, readClosely.contains(uid), lastNow, wake);
            } else {
                watching.remove(uid);
            }
            return (Void) null;
        });
        return watch ? null : call;
    }

    /**
     * Whether a pod due a read is asked to answer when it starts to starve rather than at once: it confirmed the size
     * published to it, does not starve at it, and is saturated or watched ({@link #readClosely}).
     */
    static boolean watches(Entry last, Integer published, boolean watched) {
        return last != null && published != null && last.report().confirmed()
                && published.equals(last.report().published()) && !starving(last.report(), published)
                && (saturated(last.report(), published) || watched);
    }

    /**
     * The pods of a policy's targets whose sizes follow demand (the allocation by demand, each pass): watched, or read
     * every second where their agents do not watch; an empty set ends it for the policy.
     */
    public void readClosely(String policyKey, String namespace, Set<String> podUids) {
        String key = namespace + "/" + policyKey;
        Set<String> before = podUids.isEmpty() ? closely.remove(key) : closely.put(key, Set.copyOf(podUids));
        if (!podUids.equals(before == null ? Set.of() : before)) {
            readClosely = closely.values().stream().flatMap(Set::stream).collect(Collectors.toUnmodifiableSet());
        }
    }

    /** Saturated: every connection of its size was in use within the agent's window (demand at least the size). */
    static boolean saturated(AgentReport report, Integer size) {
        return report.demand() != null && size != null && report.demand() >= size;
    }

    /** Starving: callers waited for a connection beyond its size within the agent's window (demand above the size). */
    static boolean starving(AgentReport report, Integer size) {
        return report.demand() != null && size != null && report.demand() > size;
    }

    /**
     * Whether a new report wakes the pod's policy: its first, one that differs other than in its demand (a size
     * confirmed, a problem), and one that starts a starvation (the last did not starve or said no demand), so that a
     * lender that lent connections away and turns busy gets them back within seconds, not at the next period. Nothing
     * else about demand wakes it: the allocation reads a new demand on its own period, and a pod that stays saturated
     * or starving wakes nothing more.
     */
    static boolean wakes(Entry last, AgentReport report, Integer published) {
        return last == null || !last.report().withoutDemand().equals(report.withoutDemand())
                || starving(report, published) && !starving(last.report(), last.published());
    }

    /** The key of the policy that published a live size to the pod (the first, where several did), or null. */
    static String liveKey(Pod p) {
        var annotations = p.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.keySet().stream().filter(k -> k.startsWith(Owner.LIVE_PREFIX))
                .map(k -> k.substring(Owner.LIVE_PREFIX.length())).sorted().findFirst().orElse(null);
    }

    /** Ready: the pod's app has started (its pools are built); until then no deadline runs for it. */
    static boolean ready(Pod p) {
        return p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions()
                .stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    @PreDestroy
    @Override
    public synchronized void close() {
        closed = true;
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
