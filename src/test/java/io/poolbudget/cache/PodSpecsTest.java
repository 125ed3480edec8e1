package io.poolbudget.cache;

import io.poolbudget.decide.InjectionReads;
import io.poolbudget.planning.Owner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.poolbudget.api.v1alpha1.InjectionMode;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.Preset;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.planning.Shutdown;
import io.poolbudget.planning.Workloads;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The informer stores keep of a pod spec only what the operator reads: everything it reads reads the same. */
class PodSpecsTest {
    private static final Owner OWNER = new Owner("db");

    @Test
    void aRealAppsDeploymentIsSizedTheSameFromWhatTheStoreKeeps() throws IOException {
        Deployment full = app();
        var store = new PrunedStore<Deployment>();
        store.put(store.getKey(app()), app());
        Deployment kept = store.get("shop/orders");

        assertThat(Workloads.of(kept, List.of())).isEqualTo(Workloads.of(full, List.of()));
        assertThat(Workloads.of(kept, List.of()).shutdown()).as("the template's preStop and readiness delay are read")
                .isEqualTo(new Shutdown(20, 5, 15));
        for (InjectionSpec spec : specs()) {
            assertThat(reads(spec, kept.getSpec().getTemplate())).as(describe(spec))
                    .isEqualTo(reads(spec, full.getSpec().getTemplate()));
        }

        var spec = kept.getSpec().getTemplate().getSpec();
        assertThat(spec.getInitContainers()).isNullOrEmpty();
        assertThat(spec.getVolumes()).isNullOrEmpty();
        assertThat(spec.getAffinity()).isNull();
        assertThat(spec.getSecurityContext()).isNull();
        var app = spec.getContainers().get(0);
        assertThat(app.getImage()).isNull();
        assertThat(app.getResources()).isNull();
        assertThat(app.getPorts()).isNullOrEmpty();
        assertThat(app.getLivenessProbe()).isNull();
        assertThat(app.getEnvFrom()).as("of envFrom, only the operator's ConfigMap and its prefix").singleElement()
                .satisfies(f -> assertThat(f.getConfigMapRef().getName() + " " + f.getPrefix())
                        .isEqualTo("poolbudget-db-deployment-orders PB_"));
        assertThat(app.getLifecycle().getPostStart()).isNull();
        assertThat(kept.getMetadata().getLabels()).isEqualTo(full.getMetadata().getLabels());
        assertThat(kept.getSpec().getTemplate().getMetadata()).isEqualTo(full.getSpec().getTemplate().getMetadata());
        assertThat(kept.getStatus().getReadyReplicas()).isEqualTo(4);
        System.out.printf("PodSpecsTest: a real app's Deployment as JSON: %,d bytes as the API server sends it, %,d as "
                + "cached%n", Serialization.asJson(full).length(), Serialization.asJson(kept).length());
    }

    @Test
    void aStatefulSetLosesItsVolumeClaimTemplatesAndIsSizedTheSame() throws IOException {
        PodTemplateSpec template = app().getSpec().getTemplate();
        StatefulSet full = statefulSet(template);
        var store = new PrunedStore<StatefulSet>();
        store.put(store.getKey(full), statefulSet(app().getSpec().getTemplate()));
        StatefulSet kept = store.get("shop/orders");
        assertThat(Workloads.of(kept, List.of())).isEqualTo(Workloads.of(full, List.of()));
        assertThat(kept.getSpec().getVolumeClaimTemplates()).isNullOrEmpty();
        for (InjectionSpec spec : specs()) {
            assertThat(reads(spec, kept.getSpec().getTemplate())).as(describe(spec))
                    .isEqualTo(reads(spec, full.getSpec().getTemplate()));
        }
    }

    @Test
    void aSizedPodIsCountedTheSameFromWhatTheStoreKeeps() throws IOException {
        PodTemplateSpec template = app().getSpec().getTemplate();
        Pod full = new PodBuilder().withMetadata(template.getMetadata()).editMetadata().withName("orders-1")
                .withNamespace("shop").endMetadata().withSpec(template.getSpec()).withNewStatus().withPodIP("10.0.0.7")
                .endStatus().build();
        var store = new PrunedStore<Pod>();
        store.put(store.getKey(full), Serialization.clone(full));
        Pod kept = store.get("shop/orders-1");
        for (InjectionSpec spec : specs()) {
            List<String> containers = InjectionReads.containers(spec, full.getSpec());
            assertThat(InjectionReads.containers(spec, kept.getSpec())).isEqualTo(containers);
            assertThat(InjectionReads.podRevision(OWNER, spec, kept.getMetadata(), kept.getSpec(), containers))
                    .isEqualTo(InjectionReads.podRevision(OWNER, spec, full.getMetadata(), full.getSpec(), containers));
            assertThat(InjectionReads.heldSize(OWNER, spec, kept.getMetadata(), kept.getSpec(), containers))
                    .isEqualTo(InjectionReads.heldSize(OWNER, spec, full.getMetadata(), full.getSpec(), containers));
        }
        assertThat(kept.getStatus().getPodIP()).isEqualTo("10.0.0.7");
        assertThat(kept.getSpec().getVolumes()).isNullOrEmpty();
        assertThat(kept.getSpec().getHostNetwork()).as("not on its node's network").isNull();

        Pod onNode = new PodBuilder(full).editMetadata().withName("orders-2").endMetadata().editSpec()
                .withHostNetwork(true).endSpec().build();
        store.put(store.getKey(onNode), Serialization.clone(onNode));
        assertThat(store.get("shop/orders-2").getSpec().getHostNetwork())
                .as("the ghosts and the database's clients skip a pod on its node's network: the store keeps that")
                .isTrue();
    }

    /** Everything the operator reads of a template for a policy's injection settings. */
    private static List<Object> reads(InjectionSpec spec, PodTemplateSpec template) {
        List<String> containers = InjectionReads.containers(spec, template.getSpec());
        List<Object> read = new ArrayList<>();
        read.add(containers);
        read.add(InjectionReads.revision(OWNER, spec, template, containers));
        read.add(InjectionReads.appliedSize(OWNER, spec, template, containers, null));
        read.add(InjectionReads.foreignValueFrom(OWNER, WorkloadKind.Deployment, "orders", spec, template.getSpec(),
                containers));
        read.add(InjectionReads.heldSize(OWNER, spec, template.getMetadata(), template.getSpec(), containers));
        return read;
    }

    /** Presets and containers that read literal values, a secretKeyRef (a conflict), and the ConfigMap mode. */
    private static List<InjectionSpec> specs() {
        List<InjectionSpec> specs = new ArrayList<>();
        for (Preset preset : Preset.values()) {
            for (List<String> containers : List.of(List.<String>of(), List.of("app"), List.of("proxy"))) {
                for (InjectionMode mode : InjectionMode.values()) {
                    InjectionSpec spec = new InjectionSpec();
                    spec.setPreset(preset);
                    spec.setContainers(new ArrayList<>(containers));
                    spec.setMode(mode);
                    specs.add(spec);
                }
            }
        }
        return specs;
    }

    private static String describe(InjectionSpec spec) {
        return spec.getPreset() + " " + spec.getContainers() + " " + spec.getMode();
    }

    private static StatefulSet statefulSet(PodTemplateSpec template) {
        return new StatefulSetBuilder().withNewMetadata().withName("orders").withNamespace("shop").endMetadata()
                .withNewSpec().withReplicas(3).withTemplate(template).addNewVolumeClaimTemplate().withNewMetadata()
                .withName("data").endMetadata().withNewSpec().withAccessModes("ReadWriteOnce").endSpec()
                .endVolumeClaimTemplate().endSpec().build();
    }

    private static Deployment app() throws IOException {
        try (InputStream in = PodSpecsTest.class.getResourceAsStream("/workloads/app-deployment.yaml")) {
            return Serialization.unmarshal(in, Deployment.class);
        }
    }
}
