package io.poolbudget.it;

import java.util.Set;
import org.junit.jupiter.api.parallel.ResourceLocksProvider;

/**
 * One test class at a time on each test cluster ({@link TestCluster#key}): its classes start operators that watch
 * every namespace, and two of them would size each other's workloads. Classes on different clusters (the *IT and the
 * *E2E tier) run side by side. Use with {@code @ResourceLock(providers = TierLock.class)}.
 */
public final class TierLock implements ResourceLocksProvider {
    @Override
    public Set<Lock> provideForClass(Class<?> testClass) {
        return Set.of(new Lock("cluster " + TestCluster.key(testClass)));
    }
}
