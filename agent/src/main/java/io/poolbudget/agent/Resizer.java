package io.poolbudget.agent;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Every {@code periodMs}: reads the published size and brings every pool to it, then records what each pool holds.
 * A pool is confirmed when its maximum is the published size and it holds no more than that: the evidence the
 * operator waits for before it lets another target grow. A pool that cannot be read or resized is reported, never
 * thrown into the application.
 */
final class Resizer {
    private final Path file;
    private final Pools pools;
    private final IntConsumer onChange;
    private volatile Snapshot last = new Snapshot(null, List.of(), null);
    /** The pools as the last pass found them, for {@link Demand} to sample between passes; null where it could not. */
    private volatile List<Pools.Pool> found = List.of();
    private Integer applied;

    Resizer(Path file, Pools pools, IntConsumer onChange) {
        this.file = file;
        this.pools = pools;
        this.onChange = onChange;
    }

    void start(long periodMs) {
        every(periodMs, "poolbudget-agent", this::tick);
    }

    /** Runs {@code work} every {@code periodMs} on a daemon thread of its own until the thread is interrupted. */
    static Thread every(long periodMs, String name, Runnable work) {
        Thread t = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                work.run();
                try {
                    Thread.sleep(periodMs);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** One pass: resize what differs from the published size, then read what every pool holds. */
    synchronized Snapshot tick() {
        Integer size = SizeFile.read(file);
        List<PoolState> states = new ArrayList<>();
        String error = null;
        try {
            if (size != null && !size.equals(applied)) {
                onChange.accept(size);
                applied = size;
            }
            List<Pools.Pool> all = pools.all();
            found = List.copyOf(all);
            for (Pools.Pool pool : all) {
                try {
                    if (size != null && !pool.sizedAt(size)) {
                        pool.resize(size);
                    }
                    states.add(new PoolState(pool.name(), pool.maximum(), pool.minimumIdle(), pool.total(),
                            pool.active(), pool.awaiting(), null));
                } catch (Exception e) { // one pool's failure is that pool's report; the others go on
                    states.add(new PoolState(pool.name(), -1, -1, -1, -1, -1, e.toString()));
                }
            }
        } catch (RuntimeException e) {
            found = null;
            error = e.toString();
        }
        last = new Snapshot(size, List.copyOf(states), error);
        return last;
    }

    Snapshot last() {
        return last;
    }

    List<Pools.Pool> pools() {
        return found;
    }

    static final class PoolState {
        final String name;
        final int maximum;
        final int minimumIdle;
        final int total;
        final int active;
        final int awaiting;
        final String error;

        PoolState(String name, int maximum, int minimumIdle, int total, int active, int awaiting, String error) {
            this.name = name;
            this.maximum = maximum;
            this.minimumIdle = minimumIdle;
            this.total = total;
            this.active = active;
            this.awaiting = awaiting;
            this.error = error;
        }
    }

    /** What the agent last saw: the published size, each pool, and whether every pool is at it. */
    static final class Snapshot {
        final Integer published;
        final List<PoolState> pools;
        final String error;

        Snapshot(Integer published, List<PoolState> pools, String error) {
            this.published = published;
            this.pools = pools;
            this.error = error;
        }

        /** Published, at least one pool, and every pool at the size and holding no more. */
        boolean confirmed() {
            return published != null && error == null && !pools.isEmpty() && pools.stream()
                    .allMatch(p -> p.error == null && p.maximum == published && p.total <= published);
        }

        String json() {
            return json(null, null);
        }

        /**
         * The snapshot with the pod's {@link Demand}: its 10 s high and its recent one (each left out where it is not
         * known).
         */
        String json(Integer demand, Integer recent) {
            StringBuilder out = new StringBuilder("{\"published\":").append(published).append(",\"confirmed\":")
                    .append(confirmed()).append(",\"error\":").append(quote(error));
            if (demand != null) {
                out.append(",\"demand\":").append(demand);
            }
            if (recent != null) {
                out.append(",\"recent\":").append(recent);
            }
            out.append(",\"pools\":[");
            for (int i = 0; i < pools.size(); i++) {
                PoolState p = pools.get(i);
                out.append(i == 0 ? "" : ",").append("{\"name\":").append(quote(p.name)).append(",\"maximum\":")
                        .append(p.maximum).append(",\"minimumIdle\":").append(p.minimumIdle).append(",\"total\":")
                        .append(p.total).append(",\"active\":").append(p.active).append(",\"awaiting\":")
                        .append(p.awaiting).append(",\"error\":")
                        .append(quote(p.error)).append('}');
            }
            return out.append("]}").toString();
        }

        private static String quote(String s) {
            if (s == null) {
                return "null";
            }
            StringBuilder q = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                if (c == '"' || c == '\\') {
                    q.append('\\').append(c);
                } else if (c < 0x20) {
                    q.append(String.format("\\u%04x", (int) c));
                } else {
                    q.append(c);
                }
            }
            return q.append('"').toString();
        }
    }
}
