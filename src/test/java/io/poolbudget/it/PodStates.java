package io.poolbudget.it;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Comparator;
import java.util.stream.Collectors;

/**
 * A namespace's pods and latest Events in a few lines, for a wait that timed out: whether a rollout stalled on a pod
 * that never turned Ready (and why: Pending, a probe failing, a restart) or on something else, read from the CI log.
 */
final class PodStates {
    private PodStates() {}

    static String of(KubernetesClient client, String ns) {
        try {
            String pods = client.pods().inNamespace(ns).list().getItems().stream()
                    .sorted(Comparator.comparing(p -> p.getMetadata().getCreationTimestamp()))
                    .map(PodStates::line).collect(Collectors.joining("\n  "));
            String events = client.v1().events().inNamespace(ns).list().getItems().stream()
                    .filter(e -> !"Normal".equals(e.getType()))
                    .sorted(Comparator.comparing(e -> String.valueOf(e.getLastTimestamp())))
                    .map(e -> e.getLastTimestamp() + " " + e.getInvolvedObject().getName() + " " + e.getReason() + ": "
                            + e.getMessage())
                    .collect(Collectors.joining("\n  "));
            return "\npods of " + ns + ":\n  " + pods + "\nwarnings:\n  " + events + "\n";
        } catch (RuntimeException e) {
            return "\n(pods of " + ns + " could not be read: " + e.getMessage() + ")\n";
        }
    }

    private static String line(Pod p) {
        var s = p.getStatus();
        String ready = s.getConditions() == null ? "?" : s.getConditions().stream()
                .filter(c -> "Ready".equals(c.getType()))
                .map(c -> c.getStatus() + " since " + c.getLastTransitionTime())
                .findFirst().orElse("no Ready condition");
        int restarts = s.getContainerStatuses() == null ? 0 : s.getContainerStatuses().stream()
                .mapToInt(ContainerStatus::getRestartCount).sum();
        return p.getMetadata().getName() + " created " + p.getMetadata().getCreationTimestamp() + " " + s.getPhase()
                + (p.getMetadata().getDeletionTimestamp() != null ? " terminating" : "") + ", Ready " + ready
                + ", restarts " + restarts;
    }
}
