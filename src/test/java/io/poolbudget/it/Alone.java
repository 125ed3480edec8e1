package io.poolbudget.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * In a class whose tests run side by side ({@code @Execution(CONCURRENT)} with {@code @ExtendWith(Alone.Turns.class)}):
 * this test runs with none of the class's others beside it: what it asserts depends on how fast pods start (a plan
 * made from their measured time to Ready), or it needs much of the database's connections. Say which where it is used.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@interface Alone {
    /** The others of the class share a turn; an {@link Alone} test takes one of its own. */
    final class Turns implements BeforeEachCallback, AfterEachCallback {
        private static final Map<Class<?>, ReentrantReadWriteLock> TURNS = new ConcurrentHashMap<>();
        private static final ExtensionContext.Namespace HELD = ExtensionContext.Namespace.create(Turns.class);

        @Override
        public void beforeEach(ExtensionContext context) throws InterruptedException {
            var turns = TURNS.computeIfAbsent(context.getRequiredTestClass(), c -> new ReentrantReadWriteLock(true));
            Lock turn = context.getRequiredTestMethod().isAnnotationPresent(Alone.class) ? turns.writeLock()
                    : turns.readLock();
            ManagedWait.take(turn::tryLock, turn::lock);
            context.getStore(HELD).put("turn", turn);
        }

        @Override
        public void afterEach(ExtensionContext context) {
            Lock turn = context.getStore(HELD).remove("turn", Lock.class);
            if (turn != null) {
                turn.unlock();
            }
        }
    }
}
