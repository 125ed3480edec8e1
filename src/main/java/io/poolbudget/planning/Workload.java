package io.poolbudget.planning;

import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.sizing.Rollout;
import java.util.Map;

/**
 * What sizing needs to know of one Deployment, StatefulSet, Argo Rollout or CronJob: its replicas, how it rolls out, and
 * the maximum of whatever scales it ({@code hpaMaxReplicas} null when nothing does; {@code scaler}
 * names it for explanations, for example "HorizontalPodAutoscaler/web"), and how long its old pods
 * take to shut down against a rollout step; {@code workers}, the processes each pod forks where its template says
 * (WEB_CONCURRENCY, null where it does not); {@code clientLimit}, for a pooler, the client connections a pod accepts
 * where its template says (a literal max_client_conn variable, {@link #WORKERS_UNKNOWN} for one the spec does not
 * tell, null where none is set).
 */
public record Workload(WorkloadKind kind, String namespace, String name, Map<String, String> labels, int replicas,
        Rollout rollout, Integer hpaMaxReplicas, String scaler, Shutdown shutdown, Integer workers,
        Integer clientLimit, String problem) {

    /** A workload sizing can read whole ({@code problem}: why not, naming its field; null where it can). */
    public Workload(WorkloadKind kind, String namespace, String name, Map<String, String> labels, int replicas,
            Rollout rollout, Integer hpaMaxReplicas, String scaler, Shutdown shutdown, Integer workers,
            Integer clientLimit) {
        this(kind, namespace, name, labels, replicas, rollout, hpaMaxReplicas, scaler, shutdown, workers, clientLimit,
                null);
    }

    /** This workload, with why it cannot be sized as it stands. */
    Workload withProblem(String why) {
        return new Workload(kind, namespace, name, labels, replicas, rollout, hpaMaxReplicas, scaler, shutdown,
                workers, clientLimit, why);
    }

    /**
     * The variable forking servers read their worker count from: Puma (Rails), gunicorn and uvicorn. Each worker builds
     * its own pool, so a pod holds pool size × workers.
     */
    public static final String WORKERS_ENV = "WEB_CONCURRENCY";
    /** {@link #workers}: set, but to what the spec does not tell (valueFrom, "auto", a reference). */
    public static final int WORKERS_UNKNOWN = -1;

    /** "Deployment/checkout-api": unique within a namespace, and the id targets are sized under. */
    public String id() {
        return kind + "/" + name;
    }
}
