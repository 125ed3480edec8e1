package io.poolbudget.config;

import io.javaoperatorsdk.operator.api.reconciler.Constants;
import java.util.Arrays;
import java.util.List;

/**
 * The namespaces the policy controller watches, read from its configuration property in one way for every reader
 * (the controller's own cache, the dashboard's caches): whether one informer watches them all decides how they cache.
 */
public final class WatchedNamespaces {
    /** The property (the chart's {@code POOLBUDGET_WATCH_NAMESPACES}); its default watches every namespace. */
    public static final String PROPERTY = "quarkus.operator-sdk.controllers." + ControllerNames.POLICY + ".namespaces";

    private WatchedNamespaces() {}

    /**
     * The namespaces the controller watches as configured (application.properties maps POOLBUDGET_WATCH_NAMESPACES to
     * the property): those listed, or none when it watches every namespace (also when the property is not set, as for
     * the operator SDK itself).
     */
    public static List<String> configured() {
        return of(property());
    }

    /** The property as set; when it is not, every namespace (the operator SDK's own reading of its absence). */
    public static String property() {
        return org.eclipse.microprofile.config.ConfigProvider.getConfig().getOptionalValue(PROPERTY, String.class)
                .orElse(Constants.WATCH_ALL_NAMESPACES);
    }

    /** The namespaces listed, or none when the controller watches every namespace. */
    public static List<String> of(String property) {
        List<String> listed = Arrays.stream(property.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        return listed.contains(Constants.WATCH_ALL_NAMESPACES) ? List.of() : listed;
    }
}
