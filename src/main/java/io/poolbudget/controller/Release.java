package io.poolbudget.controller;

import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.poolbudget.api.v1alpha1.DeletionPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.cache.NamespacePolicies;
import io.poolbudget.cache.PolicyReads;
import io.poolbudget.decide.Injection;
import io.poolbudget.planning.Owner;
import io.poolbudget.decide.SettledWorkloads;
import io.poolbudget.write.PolicyEvents;
import io.poolbudget.write.WorkloadWriter;
import java.time.Instant;

/** What a deleted policy gives back: with deletionPolicy Remove, every value the operator set; Retain leaves them. */
final class Release {
    private Release() {}

    static void of(PoolPolicy policy, Context<PoolPolicy> context, NamespacePolicies policies, SettledWorkloads settled,
            Instant now, WorkloadWriter writer, PolicyEvents events) {
        if (policy.getSpec() == null || policy.getSpec().getDeletionPolicy() != DeletionPolicy.Remove
                || policy.getStatus() == null || policy.getStatus().getTargets() == null) {
            return;
        }
        String ns = policy.getMetadata().getNamespace();
        var view = PolicyReads.view(context, settled, policies.in(context.getPrimaryCache(), ns).toList(), now);
        Owner owner = Owner.of(policy);
        for (var t : policy.getStatus().getTargets()) {
            WorkloadKind kind = WorkloadKind.valueOf(t.getKind());
            // Applying to a workload that is gone would try to create it; a conflicted one was never written.
            if (t.getAppliedPoolSize() == null || "Conflict".equals(t.getState())
                    || view.find(kind, ns, t.getName()).isEmpty()) {
                continue;
            }
            String problem = writer.apply(owner.fieldManager(), Injection.release(kind, ns, t.getName()));
            // mode EnvFrom: the user's own envFrom reads the ConfigMap, and a pod whose ConfigMap is gone cannot start;
            // it stays (at the last size) until the user removes that envFrom and deletes it
            String cm = owner.configMapName(kind, t.getName());
            boolean kept = policy.getSpec().getInjection() != null
                    && io.poolbudget.api.v1alpha1.InjectionMode
                            .of(policy.getSpec().getInjection()) == io.poolbudget.api.v1alpha1.InjectionMode.EnvFrom;
            if (!kept) {
                writer.deleteConfigMap(ns, cm);
            }
            events.normal(policy, PolicyEvents.RELEASED, t.getKind() + "/" + t.getName()
                    + (problem == null ? ": the operator's pool size settings were removed" : ": " + problem)
                    + (kept ? "; ConfigMap " + cm + " is kept, since your envFrom reads it: remove that envFrom, then "
                            + "delete the ConfigMap" : ""));
        }
    }
}
