package io.poolbudget.planning;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OwnerTest {
    private static final String LONG = "a".repeat(60) + ".b" + "c".repeat(180);

    private static ManagedFieldsEntry entry(String manager, String operation) {
        return new ManagedFieldsEntryBuilder().withManager(manager).withOperation(operation).build();
    }

    @Test
    void aShortNameIsUsedAsItIs() {
        var owner = new Owner("orders-db");
        assertThat(owner.fieldManager()).isEqualTo("poolbudget/orders-db");
        assertThat(owner.sizeAnnotation()).isEqualTo("pool-size.poolbudget.io/orders-db");
        assertThat(owner.hashAnnotation()).isEqualTo("config-hash.poolbudget.io/orders-db");
        assertThat(owner.configMapName(WorkloadKind.Deployment, "web"))
                .isEqualTo("poolbudget-orders-db-deployment-web");
    }

    @Test
    void aLongNameIsShortenedToWhatTheApiServerTakesAndStaysDistinct() {
        var owner = new Owner(LONG);
        assertThat(owner.key()).hasSizeLessThanOrEqualTo(63).matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
        assertThat(owner.fieldManager()).hasSizeLessThanOrEqualTo(128);
        assertThat(owner.configMapName(WorkloadKind.StatefulSet, "x".repeat(253))).hasSizeLessThanOrEqualTo(253);
        assertThat(new Owner(LONG + "d").key()).as("the hash tells long names apart").isNotEqualTo(owner.key());
        assertThat(Owner.keysOn(new ObjectMetaBuilder().withAnnotations(Map.of(owner.sizeAnnotation(), "3")).build()))
                .containsExactly(owner.key());
    }
}
