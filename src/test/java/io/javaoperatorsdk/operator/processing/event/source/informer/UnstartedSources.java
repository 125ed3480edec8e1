package io.javaoperatorsdk.operator.processing.event.source.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;

/**
 * Test only: a real JOSDK informer event source, made but not started, without a controller around it. Its
 * constructor that takes a client is package-private, hence this class in JOSDK's package.
 */
public final class UnstartedSources {

    private UnstartedSources() {}

    public static <R extends HasMetadata, P extends HasMetadata> InformerEventSource<R, P> of(
            Class<R> watched, Class<P> primary, KubernetesClient client) {
        return new InformerEventSource<>(InformerEventSourceConfiguration.from(watched, primary).build(), client);
    }
}
