package io.poolbudget.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrunedStoreTest {
    private static final FieldsV1 FIELDS = new FieldsV1();

    @Test
    void aWorkloadKeepsItsManagersInPlaceButNotTheirFieldSetsNorKubectlsCopyOfItself() {
        Deployment d = new DeploymentBuilder().withNewMetadata().withName("web").withNamespace("shop")
                .withAnnotations(Map.of(PrunedStore.LAST_APPLIED, "{...the whole object...}", "team", "checkout"))
                .addToManagedFields(new ManagedFieldsEntryBuilder().withManager("kubectl").withOperation("Apply")
                        .withFieldsV1(FIELDS).build())
                .addToManagedFields(new ManagedFieldsEntryBuilder().withManager(Owner.LEGACY_MANAGER).withOperation("Apply")
                        .withFieldsV1(FIELDS).build())
                .endMetadata().withNewSpec().withReplicas(3).endSpec().build();
        var store = new PrunedStore<Deployment>();
        store.put(store.getKey(d), d);
        Deployment cached = store.get("shop/web");
        assertThat(cached.getMetadata().getManagedFields()).extracting(e -> e.getManager() + " " + e.getOperation() + " "
                + e.getFieldsV1()).containsExactly("kubectl Apply null", Owner.LEGACY_MANAGER + " Apply null");
        assertThat(Owner.legacyManaged(cached)).as("the 0.1 handover still sees its manager").isTrue();
        assertThat(cached.getMetadata().getAnnotations()).containsExactly(Map.entry("team", "checkout"));
        assertThat(cached.getSpec().getReplicas()).isEqualTo(3);
    }

    @Test
    void aPodLosesItsManagedFieldsAndKeepsWhatSizingReads() {
        Pod p = new PodBuilder().withNewMetadata().withName("web-1").withNamespace("shop")
                .withAnnotations(Map.of("pool-size.poolbudget.io/db", "5"))
                .addToManagedFields(new ManagedFieldsEntryBuilder().withManager("kubelet").withFieldsV1(FIELDS).build())
                .endMetadata().withNewSpec().addNewContainer().withName("app").addNewEnv().withName("HIKARI_MAXIMUM_POOL_SIZE")
                .withValue("5").endEnv().endContainer().endSpec().build();
        var store = new PrunedStore<Pod>();
        store.put(store.getKey(p), p);
        Pod cached = store.get("shop/web-1");
        assertThat(cached.getMetadata().getManagedFields()).isNull();
        assertThat(cached.getMetadata().getAnnotations()).containsEntry("pool-size.poolbudget.io/db", "5");
        assertThat(cached.getSpec().getContainers().get(0).getEnv()).hasSize(1);
    }
}
