package io.poolbudget.decide;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Whether a rollout has stopped making progress, from what the cluster already says: the Deployment
 * controller's {@code Progressing=False} (reason {@code ProgressDeadlineExceeded}), or a new pod that
 * restarts or cannot start its containers without becoming Ready, which shows well before the
 * deadline. The text names no counter that moves, so a report stays one report while it lasts.
 */
public final class RolloutHealth {
    /** A container waiting for one of these does not start until someone changes something. */
    public static final Set<String> STUCK = Set.of("CrashLoopBackOff", "CreateContainerConfigError",
            "CreateContainerError",
            "ImagePullBackOff", "ErrImagePull", "InvalidImageName", "RunContainerError");
    /**
     * Restarts of a not-Ready container after which it counts as crash-looping even between back-offs; once the
     * rollout is reported stalled, one is enough to keep it so (between its first back-off and its second crash the
     * container runs, not Ready, and the report must not flicker).
     */
    public static final int RESTARTS = 2;

    private RolloutHealth() {}

    /**
     * Why the rollout to the workload's current template is not progressing, or null. {@code newPods}: its pods that
     * carry the current template's pool size, terminating ones left out; {@code reported}: the rollout was reported
     * stalled already.
     */
    public static String stalled(HasMetadata workload, List<Pod> newPods, boolean reported) {
        if (workload instanceof Deployment d && d.getStatus() != null && d.getStatus().getConditions() != null
                && d.getStatus().getConditions().stream().anyMatch(c -> "Progressing".equals(c.getType())
                        && "False".equals(c.getStatus()) && "ProgressDeadlineExceeded".equals(c.getReason()))) {
            Integer deadline = d.getSpec().getProgressDeadlineSeconds();
            return "its rollout is not progressing (ProgressDeadlineExceeded: no new pod became available within "
                    + "progressDeadlineSeconds " + (deadline == null ? 600 : deadline) + ")";
        }
        return newPods.stream().sorted(Comparator.comparing(p -> p.getMetadata().getName()))
                .map(p -> stuck(p, reported ? 1 : RESTARTS)).filter(s -> s != null).findFirst().orElse(null);
    }

    private static String stuck(Pod p, int restarts) {
        if (p.getStatus() == null || p.getStatus().getContainerStatuses() == null) {
            return null;
        }
        for (ContainerStatus c : p.getStatus().getContainerStatuses()) {
            if (Boolean.TRUE.equals(c.getReady())) {
                continue;
            }
            String waiting = c.getState() != null && c.getState().getWaiting() != null
                    ? c.getState().getWaiting().getReason() : null;
            boolean crashLoop = c.getRestartCount() != null && c.getRestartCount() >= restarts;
            if ((waiting != null && STUCK.contains(waiting)) || crashLoop) {
                String why = waiting != null && STUCK.contains(waiting) && !"CrashLoopBackOff".equals(waiting) ? waiting
                        : "restarts without becoming Ready (CrashLoopBackOff)";
                return "its new pod " + p.getMetadata().getName() + " does not start: container '" + c.getName() + "' "
                        + why;
            }
        }
        return null;
    }
}
