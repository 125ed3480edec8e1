package io.poolbudget.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** One reading of the watched-namespaces property, for the controller's cache and the dashboard's alike. */
class WatchedNamespacesTest {
    @Test
    void listedNamespacesAreTrimmedAndBlanksDropped() {
        assertThat(WatchedNamespaces.of("shop, billing,,")).containsExactly("shop", "billing");
    }

    @Test
    void noNamespaceOrJosdksAllMeansEvery() {
        assertThat(WatchedNamespaces.of("")).isEmpty();
        assertThat(WatchedNamespaces.of(" , ")).isEmpty();
        assertThat(WatchedNamespaces.of("JOSDK_ALL_NAMESPACES")).isEmpty();
        assertThat(WatchedNamespaces.of("shop,JOSDK_ALL_NAMESPACES")).isEmpty();
    }
}
