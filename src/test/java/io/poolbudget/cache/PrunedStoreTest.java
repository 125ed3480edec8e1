package io.poolbudget.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.List;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

class PrunedStoreTest {
    private static final FieldsV1 FIELDS = new FieldsV1();

    @Test
    void aWorkloadKeepsNoManagedFieldsNorKubectlsCopyOfItself() {
        Deployment d = new DeploymentBuilder().withNewMetadata().withName("web").withNamespace("shop")
                .withAnnotations(Map.of(PrunedStore.LAST_APPLIED, "{...the whole object...}", "team", "checkout"))
                .addToManagedFields(new ManagedFieldsEntryBuilder().withManager("kubectl").withOperation("Apply")
                        .withFieldsV1(FIELDS).build())
                .endMetadata().withNewSpec().withReplicas(3).endSpec().build();
        var store = new PrunedStore<Deployment>();
        store.put(store.getKey(d), d);
        Deployment cached = store.get("shop/web");
        assertThat(cached.getMetadata().getManagedFields()).isNull();
        assertThat(cached.getMetadata().getAnnotations()).containsExactly(Map.entry("team", "checkout"));
        assertThat(cached.getSpec().getReplicas()).isEqualTo(3);
    }

    @Test
    void aPodLosesItsManagedFieldsAndKeepsWhatSizingReads() {
        Pod p = new PodBuilder().withNewMetadata().withName("web-1").withNamespace("shop")
                .withAnnotations(Map.of("pool-size.poolbudget.io/db", "5"))
                .addToManagedFields(new ManagedFieldsEntryBuilder().withManager("kubelet").withFieldsV1(FIELDS).build())
                .endMetadata().withNewSpec().addNewContainer().withName("app").addNewEnv()
                .withName("HIKARI_MAXIMUM_POOL_SIZE")
                .withValue("5").endEnv().endContainer().endSpec().build();
        var store = new PrunedStore<Pod>();
        store.put(store.getKey(p), p);
        Pod cached = store.get("shop/web-1");
        assertThat(cached.getMetadata().getManagedFields()).isNull();
        assertThat(cached.getMetadata().getAnnotations()).containsEntry("pool-size.poolbudget.io/db", "5");
        assertThat(cached.getSpec().getContainers().get(0).getEnv()).hasSize(1);
    }

    @Test
    void aWorkloadKeepsNoConditionMessages() {
        Deployment d = new DeploymentBuilder().withNewMetadata().withName("web").withNamespace("shop")
                .addToManagedFields(new ManagedFieldsEntryBuilder().withManager("kubectl").withOperation("Apply")
                        .withFieldsV1(FIELDS).build())
                .endMetadata()
                .withNewStatus().addNewCondition().withType("Progressing").withStatus("False")
                .withReason("ProgressDeadlineExceeded").withMessage("ReplicaSet web-1 has timed out progressing.")
                .withLastUpdateTime("2026-11-23T10:00:00Z").withLastTransitionTime("2026-11-23T10:00:00Z")
                .endCondition()
                .endStatus().build();
        var store = new PrunedStore<Deployment>();
        store.put(store.getKey(d), d);
        Deployment cached = store.get("shop/web");
        assertThat(cached.getMetadata().getManagedFields()).isNull();
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
    }

    @Test
    void tellsOfWhatAppearsChangesAndGoesButNotOfARelistedObject() {
        List<String> told = new ArrayList<>();
        var store = new PrunedStore<Deployment>().notifying((was, now) -> told.add(version(was) + "->" + version(now)));
        store.put("shop/web", versioned(web("shop", "web", 1), "10"));
        store.put("shop/web", versioned(web("shop", "web", 1), "10")); // a relist: the same version again
        store.put("shop/web", versioned(web("shop", "web", 2), "11"));
        assertThat(store.remove("shop/api")).isNull(); // nothing stored: nothing to tell
        store.remove("shop/web");
        assertThat(told).containsExactly("null->10", "10->11", "11->null");
    }

    @Test
    void whatItTellsIsAlreadyStored() {
        List<Integer> seen = new ArrayList<>();
        var store = new java.util.concurrent.atomic.AtomicReference<PrunedStore<Deployment>>();
        store.set(new PrunedStore<Deployment>()
                .notifying((was, now) -> seen.add(store.get().inNamespace("shop").size())));
        store.get().put("shop/web", versioned(web("shop", "web", 1), "1"));
        store.get().remove("shop/web");
        assertThat(seen).containsExactly(1, 0);
    }

    @Test
    void aGroupListsItsObjectsAsTheyMoveBetweenGroups() {
        var store = new PrunedStore<Deployment>().groupedBy(d -> d.getMetadata().getLabels() == null ? null
                : d.getMetadata().getLabels().get("db"));
        store.put("shop/web", labelled(web("shop", "web", 1), "orders"));
        store.put("billing/api", labelled(web("billing", "api", 1), "orders"));
        store.put("shop/batch", web("shop", "batch", 1));
        assertThat(store.inGroup("orders")).extracting(d -> d.getMetadata().getName()).containsExactlyInAnyOrder("web",
                "api");

        store.put("shop/web", labelled(web("shop", "web", 2), "ledger"));
        assertThat(store.inGroup("orders")).extracting(d -> d.getMetadata().getName()).containsExactly("api");
        assertThat(store.inGroup("ledger")).extracting(d -> d.getMetadata().getName()).containsExactly("web");

        store.put("billing/api", web("billing", "api", 2));
        store.remove("shop/web");
        assertThat(store.inGroup("orders")).isEmpty();
        assertThat(store.inGroup("ledger")).isEmpty();
    }

    @Test
    void whatAChangeConcernsIsWhatTheObjectWasAndIs() {
        java.util.function.Function<String, List<String>> peers = s -> List.of(s, s + "-peer");
        assertThat(PrunedStore.concerning("a", "b", peers)).containsExactlyInAnyOrder("a", "a-peer", "b", "b-peer");
        assertThat(PrunedStore.concerning(null, "b", peers)).containsExactlyInAnyOrder("b", "b-peer");
        assertThat(PrunedStore.concerning("a", null, peers)).containsExactlyInAnyOrder("a", "a-peer");
    }

    private static Deployment labelled(Deployment d, String db) {
        d.getMetadata().setLabels(new java.util.HashMap<>(java.util.Map.of("db", db)));
        return d;
    }

    private static Deployment versioned(Deployment d, String version) {
        d.getMetadata().setResourceVersion(version);
        return d;
    }

    private static String version(Deployment d) {
        return d == null ? "null" : d.getMetadata().getResourceVersion();
    }

    private static Deployment web(String ns, String name, long generation) {
        return new DeploymentBuilder().withNewMetadata().withName(name).withNamespace(ns).withGeneration(generation)
                .endMetadata().withNewSpec().withReplicas(2).endSpec().build();
    }

    @Test
    void aNamespaceListsItsObjectsFromFirstStoredToRemoved() {
        var store = new PrunedStore<Deployment>();
        store.put("shop/web", web("shop", "web", 1));
        store.put("shop/api", web("shop", "api", 1));
        store.put("other/web", web("other", "web", 1));
        store.put("shop/web", web("shop", "web", 2));
        assertThat(store.inNamespace("shop"))
                .extracting(d -> d.getMetadata().getName() + "@" + d.getMetadata().getGeneration())
                .containsExactlyInAnyOrder("web@2", "api@1");
        store.remove("shop/web");
        store.remove("shop/api");
        store.remove("shop/missing");
        assertThat(store.inNamespace("shop")).isEmpty();
        assertThat(store.inNamespace("other")).hasSize(1);
        assertThat(store.inNamespace("nowhere")).isEmpty();
    }

    /**
     * The fault this index replaces: fabric8's namespace index takes a key out and puts it back on every update, and
     * its readers take no lock. Here one informer's cache (fabric8's, with this store) updates the one Deployment of
     * a namespace while a reader lists the namespace: through this store it is always there. fabric8's index is
     * read alongside and how often it showed an empty namespace is printed (it did, which made a pass report the
     * Deployment as not existing); that count depends on thread timing, so it is not asserted.
     */
    @Test
    void anObjectBeingUpdatedIsNeverMissingFromItsNamespace() throws Exception {
        var store = new PrunedStore<Deployment>();
        var cache = new CacheImpl<Deployment>(Cache.NAMESPACE_INDEX, CacheImpl::metaNamespaceIndexFunc,
                CacheImpl::metaNamespaceKeyFunc);
        cache.setItemStore(store);
        cache.put(web("shop", "web", 0));
        var done = new AtomicBoolean();
        var writer = new Thread(() -> {
            for (long g = 1; g <= 20_000; g++) {
                cache.put(web("shop", "web", g));
            }
            done.set(true);
        });
        int reads = 0;
        var missedHere = new AtomicInteger();
        var missedByIndex = new AtomicInteger();
        writer.start();
        while (!done.get()) {
            reads++;
            if (store.inNamespace("shop").isEmpty()) {
                missedHere.incrementAndGet();
            }
            if (cache.byIndex(Cache.NAMESPACE_INDEX, "shop").isEmpty()) {
                missedByIndex.incrementAndGet();
            }
        }
        writer.join();
        System.out.printf("PrunedStoreTest: %,d reads during 20,000 updates: the namespace looked empty %d times "
                + "through this store, %d times through fabric8's index%n", reads, missedHere.get(),
                missedByIndex.get());
        assertThat(missedHere).hasValue(0);
        assertThat(store.inNamespace("shop")).singleElement()
                .satisfies(d -> assertThat(d.getMetadata().getGeneration()).isEqualTo(20_000L));
    }
}
