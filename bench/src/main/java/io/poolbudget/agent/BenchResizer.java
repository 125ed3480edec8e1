package io.poolbudget.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The agent's own resize code for one HikariCP pool of the benchmark's JVM (bench/demand-allocation.sh): the size is
 * published in a file as the operator publishes it to a pod, the agent's {@link Resizer} with its {@link HikariPools}
 * applies it, and {@link #confirmed()} is the agent's evidence the operator waits for before another target may grow
 * (the pool's maximum at the size and no more connections than that). {@link #demand()} is the agent's own demand
 * ({@link Demand}: in use plus waiting every 100 ms, the high watermark of the last 10 s), as the operator reads it
 * from a pod. Here in the agent's package because the resizer is package-private; the benchmark's code is the only
 * user.
 */
public final class BenchResizer implements AutoCloseable {
    private final Path file;
    private final Resizer resizer;
    private final Demand demand;
    private Thread sampling;

    /** The pool named {@code poolName} (registered with {@code registerMbeans}), its size published in {@code file}. */
    public BenchResizer(String poolName, Path file) {
        this.file = file;
        this.resizer = new Resizer(file, new HikariPools(Pattern.compile(Pattern.quote(poolName))), size -> {});
        this.demand = new Demand(resizer::pools, System::nanoTime);
    }

    /** Starts the agent's demand sampling (every 100 ms, on a thread of its own). */
    public void startDemand() {
        sampling = demand.start();
    }

    /** The agent's demand: the highest in use plus waiting of the last 10 s; null where it is not known. */
    public Integer demand() {
        return demand.demand();
    }

    /** The agent's recent demand: the highest in use plus waiting of this second and the one before. */
    public Integer recent() {
        return demand.recent();
    }

    /** Whether the agent's last demand sample is above {@code size}: a watch of the pod would answer now. */
    public boolean starvingAbove(int size) {
        return demand.lastAbove(size);
    }

    @Override
    public void close() throws InterruptedException {
        if (sampling != null) {
            sampling.interrupt();
            sampling.join();
        }
    }

    /** Publishes {@code size} and runs one pass of the agent: the pool takes the size (shrink: its idle go at once). */
    public void publish(int size) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".next");
        Files.writeString(next, Integer.toString(size), StandardCharsets.US_ASCII);
        Files.move(next, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        resizer.tick();
    }

    /** One more pass of the agent, then whether the pool is at the published size and holds no more than it. */
    public boolean confirmed() {
        return resizer.tick().confirmed();
    }

    /** What the pool held at the agent's last pass (-1 when it could not be read). */
    public int total() {
        var pools = resizer.last().pools;
        return pools.isEmpty() ? -1 : pools.get(0).total;
    }
}
