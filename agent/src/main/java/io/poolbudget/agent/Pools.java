package io.poolbudget.agent;

import java.util.ArrayList;
import java.util.List;

/** The pools of one kind the agent can resize. */
interface Pools {
    List<Pool> all();

    /** Every pool of every kind, in the order given; one kind that cannot be read fails the lot (it is reported). */
    static Pools of(List<Pools> kinds) {
        return () -> {
            List<Pool> all = new ArrayList<>();
            for (Pools kind : kinds) {
                all.addAll(kind.all());
            }
            return all;
        };
    }

    /**
     * One pool: its limits, what it holds, and the resize in the order that never holds more than the new size. Each
     * call may fail as the pool's library fails (reflection, JMX); the failure is that pool's report.
     */
    interface Pool {
        String name();

        int maximum() throws Exception;

        /** The fewest connections it keeps (HikariCP's minimumIdle, Agroal's minSize). */
        int minimumIdle() throws Exception;

        int total() throws Exception;

        /** Connections in use; -1 where the pool does not count them (Agroal with its metrics off). */
        int active() throws Exception;

        /** Callers waiting for a connection now (HikariCP's ThreadsAwaitingConnection, Agroal's awaitingCount). */
        int awaiting() throws Exception;

        void resize(int size) throws Exception;

        /** Nothing to resize: both its limits are at the size (a fixed-size pool, as HikariCP's default). */
        default boolean sizedAt(int size) throws Exception {
            return maximum() == size && minimumIdle() == size;
        }
    }
}
