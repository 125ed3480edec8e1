package io.poolbudget.metrics;

import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * JOSDK's own {@code operator_sdk_*} series, without its per-resource tags: those name every policy
 * and are not reliably removed (an event after a policy's clean-up records its series again, which
 * MetricsIT caught), so their cardinality would grow with every policy ever created. Per-policy
 * figures are PoolBudget's own series ({@link PolicyMetrics}), which leave with the policy.
 */
public class FrameworkMetrics {
    @Produces
    @Singleton
    Metrics josdkMetrics(MeterRegistry registry) {
        return MicrometerMetrics.withoutPerResourceMetrics(registry);
    }
}
