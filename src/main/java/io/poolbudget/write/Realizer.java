package io.poolbudget.write;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.poolbudget.decide.Decision;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Applies what a pass decided to write ({@link Decision#writes}): each target's partial objects in order, the targets
 * of one pass at once, on threads of its own (a write is one API call and mostly waits). Stopped on shutdown.
 */
@Singleton
public final class Realizer implements AutoCloseable {
    /** Writes in flight at once, over every pass. */
    static final int THREADS = 8;

    private final ExecutorService threads = Executors.newFixedThreadPool(THREADS, r -> {
        Thread t = new Thread(r, "poolbudget-writes");
        t.setDaemon(true);
        return t;
    });

    /**
     * Applies the writes and returns, for each, null when it was applied or why the API server refused it for a reason
     * a user must fix (see {@link WorkloadWriter#apply}). Any other failure is thrown once every write has returned, as
     * it was thrown, for the pass to be retried.
     */
    public List<String> realize(List<Decision.Write> writes, WorkloadWriter writer) {
        List<CompletableFuture<String>> started = new ArrayList<>(writes.size());
        for (Decision.Write w : writes) {
            started.add(CompletableFuture.supplyAsync(() -> apply(w, writer), threads));
        }
        List<String> problems = new ArrayList<>(writes.size());
        RuntimeException failed = null;
        for (var write : started) {
            try {
                problems.add(write.join());
            } catch (CompletionException e) {
                failed = failed != null ? failed : e.getCause() instanceof RuntimeException cause ? cause : e;
            }
        }
        if (failed != null) {
            throw failed;
        }
        return problems;
    }

    /**
     * Resize mode Live: the sizes published to running pods. A pod that went away in between is not written (the
     * refusal is only logged); the next pass publishes to whatever pods there are then.
     */
    public void publish(List<Decision.Write> podWrites, WorkloadWriter writer) {
        realize(podWrites, writer).stream().filter(java.util.Objects::nonNull)
                .forEach(problem -> org.jboss.logging.Logger.getLogger(Realizer.class)
                        .debugf("a live size was not published: %s", problem));
    }

    /** The target's objects in order; the first refusal ends it. */
    private static String apply(Decision.Write w, WorkloadWriter writer) {
        for (HasMetadata object : w.objects()) {
            String problem = writer.apply(w.fieldManager(), object);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    @PreDestroy
    @Override
    public void close() {
        threads.shutdown();
    }
}
