package io.poolbudget.it;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One test class at a time on each test cluster ({@link TestCluster#key}): its classes start operators that watch
 * every namespace, and two of them would size each other's workloads. Classes on different clusters (the *IT and the
 * *E2E tier) run side by side.
 *
 * <p>
 * A JUnit {@code @ResourceLock} on the class would say the same, but JUnit then runs the class's tests one after the
 * other; held here, from before the class's {@code @BeforeAll} to after its clean-up, a class may run its own tests
 * side by side ({@code @Execution(CONCURRENT)}). The wait is a managed block, so JUnit's pool adds a thread for it.
 * A class marked {@link OutsideTheLane} takes no lane.
 */
final class LaneLock implements BeforeAllCallback, AfterAllCallback {
    private static final Map<String, Semaphore> LANES = new ConcurrentHashMap<>();
    private static final ExtensionContext.Namespace HELD = ExtensionContext.Namespace.create(LaneLock.class);

    @Override
    public void beforeAll(ExtensionContext context) throws InterruptedException {
        if (context.getRequiredTestClass().isAnnotationPresent(OutsideTheLane.class)) {
            return;
        }
        Semaphore lane = LANES.computeIfAbsent(TestCluster.key(context.getRequiredTestClass()),
                k -> new Semaphore(1, true));
        ManagedWait.take(lane::tryAcquire, lane::acquire);
        context.getStore(HELD).put("lane", lane);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Semaphore lane = context.getStore(HELD).remove("lane", Semaphore.class);
        try {
            OperatorTestBase.cleanUp(context.getRequiredTestClass());
        } finally {
            if (lane != null) {
                lane.release();
            }
        }
    }
}
