package io.poolbudget.cache;

import io.poolbudget.decide.ClusterView;
import io.poolbudget.decide.WorkloadShapes;
import io.poolbudget.planning.Owner;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.TargetSpec;
import io.poolbudget.api.v1alpha1.TargetStatus;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.planning.Workloads;
import java.util.Collection;
import java.util.Map;

/**
 * Which workloads (Deployments, StatefulSets, CronJobs, Argo Rollouts) some policy reads, and what the informer stores
 * keep of the others.
 * <p>
 * Every workload of every watched namespace is cached, and in most clusters most of them belong to no policy: with
 * 40,000 such Deployments beside 10,000 targeted ones, their pod templates and status were most of the live heap.
 * A pass reads of those only what {@link ClusterView#select} matches on (name, labels) and the uid, so the store
 * keeps a <em>skeleton</em> of them: the metadata a selection needs and nothing else (no spec, no status). A workload
 * is read whole as soon as a policy of its namespace names it, selects it, or lists it in its status (a policy being
 * deleted releases the workloads its status lists).
 * <p>
 * Whether a workload is wanted is decided when the informer stores it, from the policies then cached. A policy that
 * starts to select a workload later (a new policy, a changed selector) finds a skeleton: its pass reads that one
 * workload from the API server once and stores it whole ({@link InformerCaches#workloads}); from then on each
 * update of the workload is stored whole, since the policy is cached by then.
 */
public final class WorkloadInterest {
    private WorkloadInterest() {}

    /** A skeleton: the store kept only this workload's identity and labels (an object from the API has a spec). */
    public static boolean isSkeleton(HasMetadata o) {
        return WorkloadShapes.withoutSpec(o);
    }

    /** Whether any of these policies (those of the workload's namespace) reads the workload whole. */
    public static boolean wanted(Collection<PoolPolicy> policies, HasMetadata workload) {
        WorkloadKind kind = WorkloadShapes.kind(workload);
        if (kind == null) {
            return true;
        }
        String name = workload.getMetadata().getName();
        Map<String, String> labels = workload.getMetadata().getLabels();
        return policies.stream().anyMatch(p -> reads(p, kind, name, labels));
    }

    /**
     * Whether a change of this workload (of the policy's namespace) concerns the policy: the policy reads it (names
     * it, selects it, or lists it in its status, as one it claimed before a relabel or a deletion), or its pod
     * template carries the policy's size. Nothing else a pass reads depends on the
     * workload.
     */
    public static boolean concerns(PoolPolicy policy, HasMetadata workload) {
        WorkloadKind kind = WorkloadShapes.kind(workload);
        if (kind == null) {
            return true;
        }
        ObjectMeta meta = workload.getMetadata();
        if (reads(policy, kind, meta.getName(), meta.getLabels())) {
            return true;
        }
        var template = WorkloadShapes.template(workload);
        return template != null && template.getMetadata() != null && Owner.of(policy).sized(template.getMetadata());
    }

    public static boolean reads(PoolPolicy policy, WorkloadKind kind, String name, Map<String, String> labels) {
        var status = policy.getStatus();
        if (status != null && status.getTargets() != null) {
            for (TargetStatus t : status.getTargets()) {
                if (t != null && kind.name().equals(t.getKind()) && name.equals(t.getName())) {
                    return true;
                }
            }
        }
        if (policy.getSpec() == null) {
            return false;
        }
        var pooler = policy.getSpec().getDatabase() == null ? null : policy.getSpec().getDatabase().getPooler();
        if (pooler != null && kind == WorkloadKind.Deployment && name.equals(pooler.getName())) {
            return true; // the pooler its apps connect through: its pods and client limit are the policy's budget
        }
        if (policy.getSpec().getTargets() == null) {
            return false;
        }
        for (TargetSpec t : policy.getSpec().getTargets()) {
            if (t == null || (t.getKind() == null ? WorkloadKind.Deployment : t.getKind()) != kind) {
                continue;
            }
            if (t.getName() != null ? name.equals(t.getName()) : t.getSelector() != null && selects(t, labels)) {
                return true;
            }
        }
        return false;
    }

    private static boolean selects(TargetSpec t, Map<String, String> labels) {
        try {
            return Workloads.matches(t.getSelector(), labels);
        } catch (IllegalArgumentException e) {
            return true; // the policy reports its selector; until it is fixed, keep what it might select
        }
    }

    /** What the store keeps of a workload no policy reads: name, namespace, uid, labels, resource version. */
    @SuppressWarnings("unchecked")
    public static <R extends HasMetadata> R skeleton(R whole) {
        ObjectMeta m = whole.getMetadata();
        ObjectMeta kept = new ObjectMeta();
        kept.setName(m.getName());
        kept.setNamespace(m.getNamespace());
        kept.setUid(m.getUid());
        kept.setResourceVersion(m.getResourceVersion());
        kept.setGeneration(m.getGeneration());
        kept.setLabels(m.getLabels());
        kept.setDeletionTimestamp(m.getDeletionTimestamp());
        WorkloadKind kind = WorkloadShapes.kind(whole);
        return (R) WorkloadShapes.withOnly(kind == null ? WorkloadKind.Deployment : kind, kept);
    }
}
