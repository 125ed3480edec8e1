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
 * (the pool's maximum at the size and no more connections than that). Here in the agent's package because the resizer
 * is package-private; the benchmark's code is the only user.
 */
public final class BenchResizer {
    private final Path file;
    private final Resizer resizer;

    /** The pool named {@code poolName} (registered with {@code registerMbeans}), its size published in {@code file}. */
    public BenchResizer(String poolName, Path file) {
        this.file = file;
        this.resizer = new Resizer(file, new HikariPools(Pattern.compile(Pattern.quote(poolName))), size -> {});
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
