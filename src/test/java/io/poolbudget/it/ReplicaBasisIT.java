package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder;
import io.fabric8.kubernetes.api.model.Event;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Replica changes. The operator runs with a 10-minute stabilisation window here: nothing in these
 * tests may wait for it, because neither scaling inside an HPA's range nor a lower size does.
 */
class ReplicaBasisIT extends OperatorTestBase {

    @BeforeAll
    static void start() {
        startOperator("replicas", "10m");
    }

    @Test
    void scalingInsideTheHpaRangeChangesNothing() throws InterruptedException {
        create(deployment("web", 3, Map.of()));
        create(new HorizontalPodAutoscalerBuilder().withNewMetadata().withName("web").endMetadata()
                .withNewSpec().withNewScaleTargetRef("apps/v1", "Deployment", "web").withMinReplicas(3)
                .withMaxReplicas(6)
                .endSpec().build());
        // planned for the HPA's maximum: 6 + 1 surge + 1 terminating = 8 peak pods; budget 16 × 2 = 32 -> size 4
        applyPolicy(WEB_POLICY.formatted(16));
        var applied = awaitPolicy("db", targetState("web", "Applied", 4));
        assertThat(target(applied, "web").getBasisReplicas()).isEqualTo(6);
        awaitRolledOut("web");
        int replicaSets = client.apps().replicaSets().inNamespace(ns).list().getItems().size();
        String template = deployment("web").getSpec().getTemplate().toString();

        client.apps().deployments().inNamespace(ns).withName("web").scale(5); // what the HPA would do
        awaitRolledOut("web");
        TimeUnit.SECONDS.sleep(3);
        assertThat(deployment("web").getSpec().getTemplate().toString()).isEqualTo(template);
        assertThat(client.apps().replicaSets().inNamespace(ns).list().getItems()).hasSize(replicaSets);
        assertThat(livePods("web")).hasSize(5)
                .allSatisfy(p -> assertThat(env(p.getSpec().getContainers().get(0).getEnv(), MAX)).isEqualTo("4"));
        var policy = awaitPolicy("db", targetState("web", "Applied", 4));
        assertThat(target(policy, "web").getPeakPods()).isEqualTo(8);
    }

    @Test
    void aScaleUpThatLowersSizesAppliesAtOnce() {
        create(deployment("web", 2, Map.of()));
        // no HPA: current replicas; 2 + 1 + 1 = 4 peak pods; budget 8 × 2 = 16 -> size 4
        applyPolicy(WEB_POLICY.formatted(8));
        awaitPolicy("db", targetState("web", "Applied", 4));
        awaitRolledOut("web");

        client.apps().deployments().inNamespace(ns).withName("web").scale(6);
        // 6 + 1 + 1 = 8 peak pods -> size 2, applied without waiting out the 10-minute window
        awaitPolicy("db", targetState("web", "Applied", 2));
        awaitRolledOut("web");
        assertThat(livePods("web")).hasSize(6)
                .allSatisfy(p -> assertThat(env(p.getSpec().getContainers().get(0).getEnv(), MAX)).isEqualTo("2"));
        awaitEvents(events -> assertThat(events).extracting(Event::getMessage)
                .anySatisfy(
                        m -> assertThat(m).contains("Deployment/web: pool size 2 (lower size 4 → 2 applies at once)")));
    }

    @Test
    void aRaiseWaitsForTheStabilisationWindow() throws InterruptedException {
        create(deployment("web", 6, Map.of()));
        applyPolicy(WEB_POLICY.formatted(8)); // 8 peak pods, budget 16 -> size 2
        awaitPolicy("db", targetState("web", "Applied", 2));
        // The rollout to 2 may show two old pods terminating at once (a fake node's shutdown outlasting a step):
        // then 6 + 1 + 2 = 9 peak pods lower the size to 1 at once. Scale only once that rollout is over and the
        // template says what status says, so no pass still planning for 6 replicas lowers it after the scale.
        awaitRolledOut("web");
        Awaitility.await().atMost(60, TimeUnit.SECONDS).until(() -> client.pods().inNamespace(ns)
                .withLabel("app", "web").list().getItems().stream()
                .noneMatch(p -> p.getMetadata().getDeletionTimestamp() != null));
        // polled, not watched: the template is read with a GET, which an informer's callback thread may not make
        int applied = Awaitility.await().atMost(60, TimeUnit.SECONDS).until(() -> {
            var t = target(client.resources(PoolPolicy.class).inNamespace(ns).withName("db").get(), "web");
            return t != null && "Applied".equals(t.getState())
                    && String.valueOf(t.getPoolSize()).equals(templateEnv("web", MAX)) ? t.getPoolSize() : null;
        }, java.util.Objects::nonNull);
        assertThat(applied).isBetween(1, 2);
        // now a larger size fits: 4 with one step terminating, 3 once the 4 pods the scale-in deletes at once are
        // seen terminating (planned for, at most the 2 old pods); either way a raise, which must wait
        client.apps().deployments().inNamespace(ns).withName("web").scale(2);
        var pending = awaitPolicy("db", p -> target(p, "web") != null && "Pending".equals(target(p, "web").getState()));
        int raised = target(pending, "web").getPoolSize();
        assertThat(raised).isBetween(3, 4);
        assertThat(target(pending, "web").getAppliedPoolSize()).isEqualTo(applied);
        assertThat(target(pending, "web").getPendingSince()).isNotBlank();
        assertThat(target(pending, "web").getMessage())
                .contains("raise " + applied + " → " + raised + " waits for the stabilisation window");
        TimeUnit.SECONDS.sleep(2);
        assertThat(templateEnv("web", MAX)).isEqualTo(String.valueOf(applied));
    }
}
