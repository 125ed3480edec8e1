package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.Map;

/** Deployments the operator has sized (preset hikari-env, container {@code app}) and their marked pods, for tests. */
public final class SizedWorkloads {
    private SizedWorkloads() {}

    /**
     * Deployment {@code name} of namespace ns (selector {@code app: name}, generation 2), its template sized at
     * {@code size} by {@code owner}; its status has seen the template and counts {@code pods} pods, {@code updated} of
     * them of the template, {@code ready} of them Ready and available.
     */
    public static Deployment deployment(Owner owner, String name, int replicas, int size, int pods, int updated,
            int ready) {
        return new DeploymentBuilder().withNewMetadata().withName(name).withNamespace("ns").withUid("uid-" + name)
                .withGeneration(2L).endMetadata()
                .withNewSpec().withReplicas(replicas).withNewSelector().withMatchLabels(Map.of("app", name))
                .endSelector().withNewTemplate().withNewMetadata()
                .withAnnotations(Map.of(owner.sizeAnnotation(), Integer.toString(size))).endMetadata()
                .withNewSpec().addNewContainer().withName("app")
                .withEnv(new EnvVar("HIKARI_MAXIMUM_POOL_SIZE", Integer.toString(size), null)).endContainer()
                .endSpec().endTemplate().endSpec()
                .withNewStatus().withObservedGeneration(2L).withReplicas(pods).withUpdatedReplicas(updated)
                .withAvailableReplicas(ready).withReadyReplicas(ready).endStatus().build();
    }

    /** A pod of Deployment {@code app}, marked and sized at {@code size} by {@code owner}, of template {@code hash}. */
    public static Pod pod(Owner owner, String app, String name, int size, String hash) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns")
                .withLabels(Map.of("app", app, Owner.SIZED_LABEL, "true", "pod-template-hash", hash))
                .withAnnotations(Map.of(owner.sizeAnnotation(), Integer.toString(size))).endMetadata()
                .withNewSpec().addNewContainer().withName("app")
                .withEnv(new EnvVar("HIKARI_MAXIMUM_POOL_SIZE", Integer.toString(size), null)).endContainer().endSpec()
                .build();
    }
}
