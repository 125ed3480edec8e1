package io.poolbudget.decide;

import static io.poolbudget.decide.PolicyPassTest.web;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 20, found 2: a rollout that stopped is reported, one that is merely slow is not. */
class RolloutHealthTest {

    private static Pod pod(String name, boolean ready, int restarts, String waiting) {
        var status = new ContainerStatusBuilder().withName("app").withReady(ready).withRestartCount(restarts);
        if (waiting != null) {
            status.withNewState().withNewWaiting().withReason(waiting).endWaiting().endState();
        } else {
            status.withNewState().withNewRunning().endRunning().endState();
        }
        return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewStatus()
                .withContainerStatuses(status.build()).endStatus().build();
    }

    @Test
    void aCrashLoopingNewPodIsNamedWithItsContainer() {
        assertThat(RolloutHealth.stalled(web(4), List.of(pod("web-b", true, 0, null), pod("web-a", false, 3,
                "CrashLoopBackOff")), false))
                .isEqualTo("its new pod web-a does not start: container 'app' restarts without "
                        + "becoming Ready (CrashLoopBackOff)");
        assertThat(RolloutHealth.stalled(web(4), List.of(pod("web-a", false, 2, null)), false))
                .as("running again between two back-offs").contains("restarts without becoming Ready");
        assertThat(RolloutHealth.stalled(web(4), List.of(pod("web-a", false, 0, "CreateContainerConfigError")), false))
                .endsWith("container 'app' CreateContainerConfigError");
    }

    @Test
    void aPodThatIsStartingOrRestartedOnceIsNotAProblem() {
        assertThat(RolloutHealth.stalled(web(4), List.of(pod("web-a", false, 0, "ContainerCreating"),
                pod("web-b", false, 1, null), pod("web-c", true, 5, null), new PodBuilder().withNewMetadata()
                        .withName("web-d").endMetadata().build()),
                false)).isNull();
    }

    @Test
    void aStallReportedStaysWhileItsPodRunsAgainBetweenBackOffs() {
        // issue 41: after its first back-off the container runs again, not Ready, with 1 restart; the report must not
        // flicker to "rolling out" and back
        var again = List.of(pod("web-a", false, 1, null));
        assertThat(RolloutHealth.stalled(web(4), again, false)).as("not yet reported: one restart is no stall")
                .isNull();
        assertThat(RolloutHealth.stalled(web(4), again, true)).isEqualTo("its new pod web-a does not start: container "
                + "'app' restarts without becoming Ready (CrashLoopBackOff)");
        assertThat(RolloutHealth.stalled(web(4), List.of(pod("web-a", true, 1, null)), true)).as("Ready now").isNull();
    }

    @Test
    void theProgressDeadlineIsReportedWithItsSeconds() {
        var d = web(4);
        d.getSpec().setProgressDeadlineSeconds(120);
        d.getStatus().setConditions(List.of(new DeploymentConditionBuilder().withType("Progressing").withStatus("False")
                .withReason("ProgressDeadlineExceeded").build()));
        assertThat(RolloutHealth.stalled(d, List.of(), false)).isEqualTo("its rollout is not progressing "
                + "(ProgressDeadlineExceeded: no new pod became available within progressDeadlineSeconds 120)");
        d.getStatus().setConditions(List.of(new DeploymentConditionBuilder().withType("Progressing").withStatus("True")
                .withReason("ReplicaSetUpdated").build()));
        assertThat(RolloutHealth.stalled(d, List.of(), false)).isNull();
    }
}
