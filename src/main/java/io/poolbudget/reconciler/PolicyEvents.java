package io.poolbudget.reconciler;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.jboss.logging.Logger;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Kubernetes Events on a PoolPolicy: one for every size the operator wrote, and one for every
 * problem when it appears or changes (not on every pass, so a standing problem does not spam).
 */
final class PolicyEvents {
    private static final Logger LOG = Logger.getLogger(PolicyEvents.class);
    static final String APPLIED = "PoolSizeApplied";
    static final String RELEASED = "PoolSizeReleased";

    private final KubernetesClient client;

    PolicyEvents(KubernetesClient client) {
        this.client = client;
    }

    void record(PoolPolicy policy, PolicyPass.Result result, PoolPolicyStatus status) {
        for (var t : result.targets()) {
            if (t.wrote()) {
                normal(policy, APPLIED, t.kind() + "/" + t.name() + ": pool size " + t.allocation().poolSize() + " ("
                        + t.message() + ")");
            }
        }
        List<Condition> before = policy.getStatus() == null ? List.of() : policy.getStatus().getConditions();
        for (Condition c : status.getConditions()) {
            boolean problem = Conditions.READY.equals(c.getType()) ? Conditions.FALSE.equals(c.getStatus())
                    : !Conditions.ROLLOUT_IN_PROGRESS.equals(c.getType()) && Conditions.TRUE.equals(c.getStatus());
            boolean changed = before.stream().noneMatch(b -> b.getType().equals(c.getType())
                    && b.getStatus().equals(c.getStatus()) && Objects.equals(b.getMessage(), c.getMessage()));
            if (problem && changed) {
                emit(policy, "Warning", c.getReason(), c.getMessage());
            }
        }
    }

    void normal(PoolPolicy policy, String reason, String message) {
        emit(policy, "Normal", reason, message);
    }

    private void emit(PoolPolicy policy, String type, String reason, String message) {
        var meta = policy.getMetadata();
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        var event = new EventBuilder()
                .withNewMetadata().withName(meta.getName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()))
                .withNamespace(meta.getNamespace()).endMetadata()
                .withNewInvolvedObject().withApiVersion(policy.getApiVersion()).withKind(policy.getKind())
                .withName(meta.getName()).withNamespace(meta.getNamespace()).withUid(meta.getUid()).endInvolvedObject()
                .withType(type).withReason(reason)
                .withMessage(message.length() > 1000 ? message.substring(0, 1000) + "…" : message)
                .withNewSource().withComponent(Injection.FIELD_MANAGER).endSource()
                .withReportingComponent(Injection.FIELD_MANAGER).withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .build();
        try {
            client.v1().events().inNamespace(meta.getNamespace()).resource(event).create();
        } catch (KubernetesClientException e) {
            // Events are best effort, as client-go's recorder makes them: one that cannot be recorded
            // (a terminating namespace, a throttled API server) must not fail the reconcile.
            LOG.warnf("could not record event %s on PoolPolicy %s/%s: %s", reason, meta.getNamespace(), meta.getName(),
                    e.getMessage());
        }
    }
}
