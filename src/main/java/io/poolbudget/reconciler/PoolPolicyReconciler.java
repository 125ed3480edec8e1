package io.poolbudget.reconciler;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import java.time.Clock;
import java.util.Objects;

@ControllerConfiguration(name = PoolPolicyReconciler.NAME)
public class PoolPolicyReconciler implements Reconciler<PoolPolicy> {
    public static final String NAME = "poolpolicy";

    private final StatusAggregator statusAggregator = new StatusAggregator(Clock.systemUTC());

    @Override
    public UpdateControl<PoolPolicy> reconcile(PoolPolicy policy, Context<PoolPolicy> context) {
        PoolPolicyStatus desired = statusAggregator.reconciled(policy);
        if (Objects.equals(desired, policy.getStatus())) {
            return UpdateControl.noUpdate();
        }
        return UpdateControl.patchStatus(statusOnly(policy, desired));
    }

    /** A minimal object for the server-side-apply status patch: identity plus status, nothing else. */
    private static PoolPolicy statusOnly(PoolPolicy policy, PoolPolicyStatus status) {
        var patch = new PoolPolicy();
        patch.setMetadata(new ObjectMetaBuilder().withName(policy.getMetadata().getName())
                .withNamespace(policy.getMetadata().getNamespace()).build());
        patch.setStatus(status);
        return patch;
    }
}
