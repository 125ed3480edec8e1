package io.poolbudget.config;

import io.poolbudget.controller.PoolPolicyReconciler;

import io.javaoperatorsdk.operator.api.reconciler.Constants;
import java.util.Arrays;
import java.util.List;

/**
 * The namespaces the policy controller watches, read from its configuration property in one way for every reader
 * (the controller's own cache, the dashboard's caches): whether one informer watches them all decides how they cache.
 */
public final class WatchedNamespaces {
    /** The property (the chart's {@code POOLBUDGET_WATCH_NAMESPACES}); its default watches every namespace. */
    public static final String PROPERTY = "quarkus.operator-sdk.controllers." + PoolPolicyReconciler.NAME + ".namespaces";

    private WatchedNamespaces() {}

    /** The namespaces listed, or none when the controller watches every namespace. */
    public static List<String> of(String property) {
        List<String> listed = Arrays.stream(property.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        return listed.contains(Constants.WATCH_ALL_NAMESPACES) ? List.of() : listed;
    }
}
