package io.poolbudget.cache;

import io.poolbudget.planning.Owner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicySpec;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.api.v1alpha1.TargetSpec;
import io.poolbudget.api.v1alpha1.TargetStatus;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which workloads the stores keep whole, and that a skeleton is replaced, never the other way round. */
class WorkloadInterestTest {

    @Test
    void aWorkloadIsWantedWhenAPolicyOfItsNamespaceNamesSelectsOrListsIt() {
        var api = deployment("api", Map.of("db", "orders"));
        assertThat(WorkloadInterest.wanted(List.of(policy(byName(WorkloadKind.Deployment, "api"))), api)).isTrue();
        assertThat(WorkloadInterest.wanted(List.of(policy(bySelector(Map.of("db", "orders")))), api)).isTrue();
        var released = policy(byName(WorkloadKind.Deployment, "other"));
        released.setStatus(status("Deployment", "api")); // in status: a deleted policy still releases it
        assertThat(WorkloadInterest.wanted(List.of(released), api)).isTrue();
    }

    @Test
    void thePoolerAPolicysAppsConnectThroughIsWantedAndItsChangesConcernThePolicy() {
        var clients = policy(byName(WorkloadKind.Deployment, "api"));
        var db = new io.poolbudget.api.v1alpha1.DatabaseSpec();
        var pooler = new io.poolbudget.api.v1alpha1.PoolerRef();
        pooler.setName("pgbouncer");
        db.setPooler(pooler);
        clients.getSpec().setDatabase(db);
        var bouncer = deployment("pgbouncer", Map.of());
        assertThat(WorkloadInterest.wanted(List.of(clients), bouncer)).isTrue();
        assertThat(WorkloadInterest.concerns(clients, bouncer)).isTrue();
        assertThat(WorkloadInterest.concerns(clients, deployment("pgcat", Map.of()))).isFalse();
    }

    @Test
    void aWorkloadNoPolicyReadsIsNotWanted() {
        var web = deployment("web", Map.of("db", "catalog"));
        assertThat(WorkloadInterest.wanted(List.of(), web)).isFalse();
        assertThat(WorkloadInterest.wanted(List.of(policy(bySelector(Map.of("db", "orders"))),
                policy(byName(WorkloadKind.Deployment, "api")), policy(byName(WorkloadKind.StatefulSet, "web"))), web))
                .as("another selector, another name, and the same name of another kind").isFalse();
        var listed = policy(byName(WorkloadKind.Deployment, "api"));
        listed.setStatus(status("StatefulSet", "web"));
        assertThat(WorkloadInterest.wanted(List.of(listed), web)).isFalse();
        assertThat(WorkloadInterest.wanted(List.of(new PoolPolicy()), web)).as("a policy without spec").isFalse();
    }

    @Test
    void aWorkloadChangeConcernsThePoliciesThatReadOrSizedIt() {
        var api = deployment("api", Map.of("db", "orders"));
        assertThat(WorkloadInterest.concerns(policy(byName(WorkloadKind.Deployment, "api")), api)).isTrue();
        assertThat(WorkloadInterest.concerns(policy(bySelector(Map.of("db", "orders"))), api)).isTrue();
        var claimed = policy(bySelector(Map.of("db", "billing")));
        claimed.setStatus(status("Deployment", "api"));
        assertThat(WorkloadInterest.concerns(claimed, api)).as("relabelled away or deleted: its status lists it")
                .isTrue();
        var sizedFor = deployment("api", Map.of("db", "catalog"));
        sizedFor.getSpec().getTemplate().setMetadata(new ObjectMetaBuilder()
                .withAnnotations(Map.of(Owner.of(claimed).sizeAnnotation(), "4")).build());
        assertThat(WorkloadInterest.concerns(policy(bySelector(Map.of("db", "billing"))), sizedFor))
                .as("its pod template carries the policy's size").isTrue();
    }

    @Test
    void aWorkloadChangeDoesNotConcernPoliciesThatNeitherReadNorSizedIt() {
        var web = deployment("web", Map.of("db", "catalog"));
        assertThat(WorkloadInterest.concerns(policy(bySelector(Map.of("db", "orders"))), web)).isFalse();
        assertThat(WorkloadInterest.concerns(policy(byName(WorkloadKind.StatefulSet, "web")), web))
                .as("the same name of another kind").isFalse();
        var other = deployment("web", Map.of("db", "catalog"));
        other.getSpec().getTemplate().setMetadata(new ObjectMetaBuilder()
                .withAnnotations(Map.of(new Owner("replica").sizeAnnotation(), "4")).build());
        assertThat(WorkloadInterest.concerns(policy(bySelector(Map.of("db", "orders"))), other))
                .as("sized by another policy").isFalse();
        assertThat(
                WorkloadInterest.concerns(policy(bySelector(Map.of("db", "orders"))), WorkloadInterest.skeleton(web)))
                .as("a skeleton").isFalse();
        var noSpec = policy(byName(WorkloadKind.Deployment, "web"));
        noSpec.setSpec(null);
        assertThat(WorkloadInterest.concerns(noSpec, web)).as("a policy without spec").isFalse();
    }

    @Test
    void aSelectorThePolicyCannotUseKeepsWhatItMightSelect() {
        var target = new TargetSpec();
        target.setSelector(new LabelSelectorBuilder().addNewMatchExpression().withKey("db").withOperator("Near")
                .withValues("orders").endMatchExpression().build());
        assertThat(WorkloadInterest.wanted(List.of(policy(target)), deployment("web", Map.of()))).isTrue();
    }

    @Test
    void aSkeletonKeepsIdentityAndLabelsOnly() {
        var sts = new StatefulSetBuilder().withNewMetadata().withName("pg").withNamespace("shop").withUid("u1")
                .withResourceVersion("42").withGeneration(3L).withLabels(Map.of("db", "orders"))
                .withAnnotations(Map.of("team", "data")).endMetadata().withNewSpec().withReplicas(3).endSpec()
                .withNewStatus().withReplicas(3).endStatus().build();
        var s = WorkloadInterest.skeleton(sts);
        assertThat(s).isInstanceOf(io.fabric8.kubernetes.api.model.apps.StatefulSet.class);
        assertThat(WorkloadInterest.isSkeleton(s)).isTrue();
        assertThat(WorkloadInterest.isSkeleton(sts)).isFalse();
        var m = s.getMetadata();
        assertThat(List.of(m.getName(), m.getNamespace(), m.getUid(), m.getResourceVersion(), m.getGeneration(),
                m.getLabels())).containsExactly("pg", "shop", "u1", "42", 3L, Map.of("db", "orders"));
        assertThat(m.getAnnotations()).isNullOrEmpty();
        assertThat(s.getStatus()).isNull();
    }

    @Test
    void theStoreKeepsASkeletonUntilAPolicyReadsTheWorkloadThenWhole() {
        Map<String, List<PoolPolicy>> policies = new HashMap<>();
        var store = PrunedStore.<Deployment>workloads(ns -> policies.getOrDefault(ns, List.of()));
        store.put("shop/api", deployment("api", Map.of("db", "orders")));
        assertThat(WorkloadInterest.isSkeleton(store.get("shop/api"))).isTrue();
        assertThat(store.inNamespace("shop")).hasSize(1);

        policies.put("shop", List.of(policy(bySelector(Map.of("db", "orders")))));
        Deployment whole = store.restore(deployment("api", Map.of("db", "orders")));
        assertThat(whole.getSpec().getReplicas()).isEqualTo(4);
        assertThat(store.get("shop/api")).isSameAs(whole);
        assertThat(store.restore(deployment("api", Map.of("db", "orders")))).as("only a skeleton is replaced")
                .isSameAs(whole);

        store.put("shop/api", deployment("api", Map.of("db", "orders")));
        assertThat(WorkloadInterest.isSkeleton(store.get("shop/api"))).as("a policy reads it: stored whole").isFalse();
        store.put("shop/api", deployment("api", Map.of("db", "catalog")));
        assertThat(WorkloadInterest.isSkeleton(store.get("shop/api"))).as("relabelled away from the policy").isTrue();

        store.remove("shop/api");
        assertThat(store.restore(deployment("api", Map.of("db", "orders")))).as("gone: not brought back").isNull();
        assertThat(store.inNamespace("shop")).isEmpty();
    }

    @Test
    void cronJobsAndRolloutsNoPolicyReadsAreSkeletonsAndTheOthersKeepOnlyTheReadPartOfTheirTemplate() {
        Map<String, List<PoolPolicy>> policies = Map.of("shop", List.of(policy(byName(WorkloadKind.CronJob, "sync")),
                policy(byName(WorkloadKind.Rollout, "web"))));
        var cronJobs = PrunedStore.<io.fabric8.kubernetes.api.model.batch.v1.CronJob>workloads(
                ns -> policies.getOrDefault(ns, List.of()));
        var rollouts = PrunedStore.<io.poolbudget.api.argo.ArgoRollout>workloads(
                ns -> policies.getOrDefault(ns, List.of()));
        for (String name : List.of("sync", "report")) {
            cronJobs.put("shop/" + name, new io.fabric8.kubernetes.api.model.batch.v1.CronJobBuilder()
                    .withMetadata(meta(name)).withNewSpec().withSchedule("*/5 * * * *").withNewJobTemplate()
                    .withNewSpec().withParallelism(2).withNewTemplate().withSpec(podSpec()).endTemplate().endSpec()
                    .endJobTemplate().endSpec().build());
            var rollout = new io.poolbudget.api.argo.ArgoRollout();
            rollout.setMetadata(meta(name.equals("sync") ? "web" : "api"));
            rollout.setSpec(new io.poolbudget.api.argo.ArgoRollout.Spec());
            rollout.getSpec().template = new io.fabric8.kubernetes.api.model.PodTemplateSpec(null, podSpec());
            rollouts.put("shop/" + rollout.getMetadata().getName(), rollout);
        }
        assertThat(WorkloadInterest.isSkeleton(cronJobs.get("shop/report"))).as("no policy reads it").isTrue();
        assertThat(cronJobs.get("shop/report")).isInstanceOf(io.fabric8.kubernetes.api.model.batch.v1.CronJob.class);
        assertThat(WorkloadInterest.isSkeleton(rollouts.get("shop/api"))).isTrue();
        assertThat(rollouts.get("shop/api")).isInstanceOf(io.poolbudget.api.argo.ArgoRollout.class);

        var sync = cronJobs.get("shop/sync");
        assertThat(sync.getSpec().getJobTemplate().getSpec().getParallelism()).isEqualTo(2);
        var syncPod = sync.getSpec().getJobTemplate().getSpec().getTemplate().getSpec();
        var webPod = rollouts.get("shop/web").getSpec().template.getSpec();
        for (var pod : List.of(syncPod, webPod)) {
            assertThat(pod.getContainers().get(0).getEnv()).extracting("name").containsExactly("POOL");
            assertThat(pod.getContainers().get(0).getImage()).as("nothing reads it").isNull();
            assertThat(pod.getVolumes()).as("nothing reads them").isNullOrEmpty();
        }
    }

    private static io.fabric8.kubernetes.api.model.ObjectMeta meta(String name) {
        return new ObjectMetaBuilder().withName(name).withNamespace("shop").withUid(name + "-uid").build();
    }

    private static io.fabric8.kubernetes.api.model.PodSpec podSpec() {
        return new io.fabric8.kubernetes.api.model.PodSpecBuilder().addNewContainer().withName("app")
                .withImage("registry.example/app:1").addNewEnv().withName("POOL").withValue("4").endEnv()
                .addNewVolumeMount().withName("data").withMountPath("/data").endVolumeMount().endContainer()
                .addNewVolume().withName("data").withNewEmptyDir().endEmptyDir().endVolume().build();
    }

    private static Deployment deployment(String name, Map<String, String> labels) {
        return new DeploymentBuilder().withNewMetadata().withName(name).withNamespace("shop").withUid(name + "-uid")
                .withLabels(labels).endMetadata().withNewSpec().withReplicas(4).withNewTemplate().withNewSpec()
                .addNewContainer().withName("app").endContainer().endSpec().endTemplate().endSpec().build();
    }

    private static TargetSpec byName(WorkloadKind kind, String name) {
        var t = new TargetSpec();
        t.setKind(kind);
        t.setName(name);
        return t;
    }

    private static TargetSpec bySelector(Map<String, String> labels) {
        var t = new TargetSpec();
        t.setSelector(new LabelSelectorBuilder().withMatchLabels(labels).build());
        return t;
    }

    private static PoolPolicy policy(TargetSpec target) {
        var spec = new PoolPolicySpec();
        spec.setTargets(new ArrayList<>(List.of(target)));
        var p = new PoolPolicy();
        p.setMetadata(new ObjectMetaBuilder().withName("db").withNamespace("shop").build());
        p.setSpec(spec);
        return p;
    }

    private static PoolPolicyStatus status(String kind, String name) {
        var t = new TargetStatus();
        t.setKind(kind);
        t.setName(name);
        var s = new PoolPolicyStatus();
        s.setTargets(new ArrayList<>(List.of(t)));
        return s;
    }
}
