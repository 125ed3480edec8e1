package io.poolbudget.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * In a class whose tests run side by side ({@code @Execution(CONCURRENT)} with {@code @ExtendWith(Alone.Turns.class)}):
 * this test runs with none of the class's others beside it: what it asserts depends on how fast pods start (a plan
 * made from their measured time to Ready), or it needs much of the database's connections. Say which where it is used.
 * The class's others run side by side, at most {@link AtMost} at once where the class says so.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@interface Alone {
    /**
     * On the class: how many of its tests run at once. Each starts JVM pods, and on 2 cores every pod started beside
     * others turns Ready later: past a few at once, a rollout of 3 replicas takes longer than its wait.
     */
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @interface AtMost {
        int value();
    }

    /** The others of the class share a turn (at most {@link AtMost} of them); an {@link Alone} test takes its own. */
    final class Turns implements BeforeEachCallback, AfterEachCallback {
        private static final Map<Class<?>, ReentrantReadWriteLock> TURNS = new ConcurrentHashMap<>();
        private static final Map<Class<?>, Semaphore> SEATS = new ConcurrentHashMap<>();
        private static final ExtensionContext.Namespace HELD = ExtensionContext.Namespace.create(Turns.class);

        @Override
        public void beforeEach(ExtensionContext context) throws InterruptedException {
            Class<?> type = context.getRequiredTestClass();
            var turns = TURNS.computeIfAbsent(type, c -> new ReentrantReadWriteLock(true));
            boolean alone = context.getRequiredTestMethod().isAnnotationPresent(Alone.class);
            AtMost cap = type.getAnnotation(AtMost.class);
            if (!alone && cap != null) { // a seat first, then the turn: a waiting seat never holds the turn from Alone
                Semaphore seats = SEATS.computeIfAbsent(type, c -> new Semaphore(cap.value(), true));
                ManagedWait.take(seats::tryAcquire, seats::acquire);
                context.getStore(HELD).put("seat", seats);
            }
            Lock turn = alone ? turns.writeLock() : turns.readLock();
            ManagedWait.take(turn::tryLock, turn::lock);
            context.getStore(HELD).put("turn", turn);
        }

        @Override
        public void afterEach(ExtensionContext context) {
            Lock turn = context.getStore(HELD).remove("turn", Lock.class);
            if (turn != null) {
                turn.unlock();
            }
            Semaphore seats = context.getStore(HELD).remove("seat", Semaphore.class);
            if (seats != null) {
                seats.release();
            }
        }
    }
}
