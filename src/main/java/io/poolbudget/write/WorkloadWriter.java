package io.poolbudget.write;

import io.poolbudget.decide.Injection;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.poolbudget.metrics.PolicyMetrics;

/** The operator's only writes to workloads: server-side apply, each policy under its own field manager. */
public interface WorkloadWriter {

    /** Applies a partial object; returns null, or the reason another field manager blocks it. */
    String apply(String fieldManager, HasMetadata partial);

    void deleteConfigMap(String namespace, String name);

    /**
     * This writer, counting each write's outcome for one policy: applied, conflict (a problem it
     * reports) or error (an exception, which still propagates).
     */
    public default WorkloadWriter counted(java.util.function.Consumer<PolicyMetrics.WriteOutcome> count) {
        WorkloadWriter inner = this;
        return new WorkloadWriter() {
            @Override
            public String apply(String fieldManager, HasMetadata partial) {
                String problem;
                try {
                    problem = inner.apply(fieldManager, partial);
                } catch (RuntimeException e) {
                    count.accept(PolicyMetrics.WriteOutcome.error);
                    throw e;
                }
                count.accept(
                        problem == null ? PolicyMetrics.WriteOutcome.applied : PolicyMetrics.WriteOutcome.conflict);
                return problem;
            }

            @Override
            public void deleteConfigMap(String namespace, String name) {
                inner.deleteConfigMap(namespace, name);
            }
        };
    }

    /** The writer the operator uses. */
    public static WorkloadWriter serverSideApply(KubernetesClient client) {
        return new WorkloadWriter() {
            @Override
            public String apply(String fieldManager, HasMetadata partial) {
                try {
                    client.resource(partial).fieldManager(fieldManager).serverSideApply();
                    return null;
                } catch (KubernetesClientException e) {
                    return problem(partial, e);
                }
            }

            private String problem(HasMetadata partial, KubernetesClientException e) {
                // 409: a field we would set belongs to another manager (the user's manifest sets the same
                // variable, say). Taking it by force would start a tug of war; report it instead. Other
                // errors propagate, so the reconcile is retried.
                if (e.getCode() == 409) {
                    return conflictMessage(partial, e);
                }
                // 422: the API server will not merge our field into what is there (the user sets the variable
                // through valueFrom, say). Retrying cannot help; report it like an ownership conflict.
                if (e.getCode() == 422) {
                    return id(partial) + ": the API server rejected "
                            + "the operator's change (" + detail(e) + "). Remove what your manifest sets for the "
                            + "pool-size variables, or name other variables in spec.injection.";
                }
                // 403: the operator's own permissions lack a rule (an edited Role, an old chart). Retrying
                // cannot help until an administrator fixes it; say so on the policy instead of retrying silently.
                if (e.getCode() == 403) {
                    return id(partial) + ": the operator may not write "
                            + "it (" + detail(e) + "). Give its ServiceAccount the rules of the Helm chart's role "
                            + "(charts/poolbudget), e.g. by upgrading the release.";
                }
                throw e;
            }

            @Override
            public void deleteConfigMap(String namespace, String name) {
                client.configMaps().inNamespace(namespace).withName(name).delete();
            }
        };
    }

    /** Kind/name; an object from the informer cache may lack its kind field. */
    private static String id(HasMetadata o) {
        String kind = o.getKind() != null ? o.getKind() : Injection.kindOf(o).name();
        return kind + "/" + o.getMetadata().getName();
    }

    private static String detail(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                : e.getMessage();
    }

    private static String conflictMessage(HasMetadata partial, KubernetesClientException e) {
        return id(partial) + ": another field manager owns a field the "
                + "operator would set (" + detail(e) + "). Remove that field from your manifest, or pick other "
                + "variable names in spec.injection.";
    }
}
