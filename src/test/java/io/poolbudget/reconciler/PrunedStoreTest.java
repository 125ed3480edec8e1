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

    @Test
    void aWorkloadVersion01NeverWroteKeepsNoManagedFieldsNorConditionMessages() {
        Deployment d = new DeploymentBuilder().withNewMetadata().withName("web").withNamespace("shop")
                .addToManagedFields(new ManagedFieldsEntryBuilder().withManager("kubectl").withOperation("Apply")
                        .withFieldsV1(FIELDS).build()).endMetadata()
                .withNewStatus().addNewCondition().withType("Progressing").withStatus("False")
                .withReason("ProgressDeadlineExceeded").withMessage("ReplicaSet web-1 has timed out progressing.")
                .withLastUpdateTime("2026-11-23T10:00:00Z").withLastTransitionTime("2026-11-23T10:00:00Z").endCondition()
                .endStatus().build();
        var store = new PrunedStore<Deployment>();
        store.put(store.getKey(d), d);
        Deployment cached = store.get("shop/web");
        assertThat(cached.getMetadata().getManagedFields()).isNull();
        assertThat(Owner.legacyManaged(cached)).isFalse();
        var c = cached.getStatus().getConditions().get(0);
        assertThat(c.getType() + " " + c.getStatus() + " " + c.getReason() + " " + c.getLastTransitionTime())
                .isEqualTo("Progressing False ProgressDeadlineExceeded 2026-11-23T10:00:00Z");
        assertThat(c.getMessage()).isNull();
        assertThat(c.getLastUpdateTime()).isNull();
    }

    @Test
    void policiesKeepWhatTheirReadersNeed() {
        var target = new io.poolbudget.api.v1alpha1.TargetStatus();
        target.setName("api");
        target.setState("Rolling");
        target.setExplanation("peak pods 4 = 3 (current replicas 3) + 1 surge");
        var status = new io.poolbudget.api.v1alpha1.PoolPolicyStatus();
        status.setTargets(new java.util.ArrayList<>(java.util.List.of(target)));
        var policy = new io.poolbudget.api.v1alpha1.PoolPolicy();
        policy.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("db").withNamespace("shop")
                .build());
        policy.setStatus(status);
        var forBudgets = PrunedStore.policiesWithoutExplanations();
        forBudgets.put("shop/db", policy);
        assertThat(forBudgets.get("shop/db").getStatus().getTargets()).extracting(t -> t.getState() + " "
                + t.getExplanation()).containsExactly("Rolling null");
        var forEvents = PrunedStore.policiesWithoutStatus();
        forEvents.put("shop/db", policy);
        assertThat(forEvents.get("shop/db").getStatus()).isNull();
        assertThat(forEvents.get("shop/db").getMetadata().getName()).isEqualTo("db");
    }
}
