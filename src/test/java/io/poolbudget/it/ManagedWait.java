package io.poolbudget.it;

import java.util.concurrent.ForkJoinPool;
import java.util.function.BooleanSupplier;

/** A wait inside JUnit's ForkJoin pool that lets the pool add a thread meanwhile, as JUnit's own locks wait. */
final class ManagedWait {
    /** What may block: taking a lock or a permit. */
    interface Take {
        void take() throws InterruptedException;
    }

    private ManagedWait() {}

    /** Takes with {@code tryTake} if it can at once, else with {@code take}, blocking. */
    static void take(BooleanSupplier tryTake, Take take) throws InterruptedException {
        ForkJoinPool.managedBlock(new ForkJoinPool.ManagedBlocker() {
            @Override
            public boolean block() throws InterruptedException {
                take.take();
                return true;
            }

            @Override
            public boolean isReleasable() { return tryTake.getAsBoolean(); }
        });
    }
}
