package io.poolbudget.decide;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.poolbudget.api.argo.ArgoRollout;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import org.junit.jupiter.api.Test;

/** Every target kind is known in one place: its class, its name in a manifest, and an object of it without a spec. */
class WorkloadShapesTest {
    @Test
    void everyKindHasItsOwnClassNameAndEmptyObject() {
        for (WorkloadKind kind : WorkloadKind.values()) {
            var meta = new ObjectMetaBuilder().withName("w").withNamespace("ns").build();
            var o = WorkloadShapes.withOnly(kind, meta);
            assertThat(o).as(kind.name()).isInstanceOf(WorkloadShapes.type(kind));
            assertThat(WorkloadShapes.kind(o)).isEqualTo(kind);
            assertThat(WorkloadShapes.named(kind.name())).isEqualTo(kind);
            assertThat(WorkloadShapes.isWorkload(WorkloadShapes.type(kind))).isTrue();
            assertThat(WorkloadShapes.withoutSpec(o)).as("only its metadata").isTrue();
            assertThat(o.getMetadata()).isSameAs(meta);
        }
        assertThat(WorkloadShapes.type(WorkloadKind.Deployment)).isEqualTo(Deployment.class);
        assertThat(WorkloadShapes.type(WorkloadKind.StatefulSet)).isEqualTo(StatefulSet.class);
        assertThat(WorkloadShapes.type(WorkloadKind.Rollout)).isEqualTo(ArgoRollout.class);
        assertThat(WorkloadShapes.type(WorkloadKind.CronJob)).isEqualTo(CronJob.class);
    }

    @Test
    void anyOtherKindIsNone() {
        assertThat(WorkloadShapes.named("PodDisruptionBudget")).isNull();
        assertThat(WorkloadShapes.named("Job")).as("a standalone Job is not a target kind").isNull();
        assertThat(WorkloadShapes.kind(new Pod())).isNull();
        assertThat(WorkloadShapes.isWorkload(ConfigMap.class)).isFalse();
        assertThat(WorkloadShapes.withoutSpec(new Pod())).isFalse();
    }

    @Test
    void liveReachesDeploymentsAndStatefulSetsOnly() {
        assertThat(WorkloadShapes.resizesLive(WorkloadKind.Deployment)).isTrue();
        assertThat(WorkloadShapes.resizesLive(WorkloadKind.StatefulSet)).isTrue();
        assertThat(WorkloadShapes.resizesLive(WorkloadKind.Rollout)).isFalse();
        assertThat(WorkloadShapes.resizesLive(WorkloadKind.CronJob)).isFalse();
    }
}
