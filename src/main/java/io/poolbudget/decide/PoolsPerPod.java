package io.poolbudget.decide;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.TargetSpec;
import io.poolbudget.planning.Workload;
import io.poolbudget.planning.Workloads;

/**
 * How many pools one pod opens, read as its own size is: from that pod's own spec. Where the target leaves it to the
 * pods (a preset whose server forks workers that each build a pool, and no {@code spec.targets[].poolsPerPod}), it is
 * the {@link Workload#WORKERS_ENV} the pod's own containers set, so the pods of an older template count at theirs
 * and not at the current template's; where that cannot be read from the pod (valueFrom, "auto"), the plan's number.
 * Otherwise the plan's number ({@code planned}), for every pod.
 */
public record PoolsPerPod(int planned, boolean fromPods) {
    /** The plan's number for every pod. */
    public static PoolsPerPod same(int planned) {
        return new PoolsPerPod(planned, false);
    }

    /** For a target of a policy with {@code injection}: {@code planned} is the plan's pools per pod for it. */
    public static PoolsPerPod of(InjectionSpec injection, TargetSpec target, int planned) {
        boolean forks = injection != null && injection.getPreset() != null && injection.getPreset().forks();
        return new PoolsPerPod(planned, forks && (target == null || target.getPoolsPerPod() == null));
    }

    /** The pools a pod with this spec opens. */
    public int of(PodSpec pod) {
        if (!fromPods) {
            return planned;
        }
        Integer workers = Workloads.workers(pod);
        // no WEB_CONCURRENCY: one process, one pool (as the plan counts a template without it)
        return workers == null ? 1 : workers == Workload.WORKERS_UNKNOWN ? planned : workers;
    }
}
