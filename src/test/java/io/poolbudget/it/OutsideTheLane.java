package io.poolbudget.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A cluster test class that starts no operator and makes nothing an operator would act on (no policy, no budget): it
 * runs beside the class that holds its cluster's lane ({@link LaneLock}) instead of waiting for it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@interface OutsideTheLane {
}
