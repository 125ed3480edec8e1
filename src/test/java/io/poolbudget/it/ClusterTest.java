package io.poolbudget.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class that runs on its tier's test cluster ({@link TestCluster#of}): skipped with the reason where that
 * cluster cannot be had ({@link ClusterCondition}), and never beside another class on the same cluster
 * ({@link LaneLock}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith({ClusterCondition.class, LaneLock.class})
@interface ClusterTest {
}
