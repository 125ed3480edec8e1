package io.poolbudget.sizing;

/**
 * The pods a CronJob's Jobs run at once. A Job runs {@code podsPerJob} pods at a time (its parallelism, at most its
 * completions); {@code jobs} of them overlap (1 with concurrencyPolicy Forbid, the schedule's starts within the
 * jobs' deadline with Allow). Replace deletes the running Job as the next one starts, whose pods then shut down
 * beside the new ones. With podReplacementPolicy TerminatingOrFailed (Kubernetes' default without a
 * podFailurePolicy) a Job starts a replacement as soon as a pod begins to terminate, so each running pod may
 * overlap its replacement; with Failed the replacement waits until the pod is gone.
 *
 * @param how why {@code jobs} overlap, for explanations
 */
public record Batch(long podsPerJob, long jobs, String concurrencyPolicy, boolean replacesTerminating, String how)
        implements
            Rollout {

    /** A Job's template change affects only the Jobs started after it: nothing surges. */
    @Override
    public long surge(long replicas) {
        return 0;
    }

    @Override
    public long defaultTerminating(long replicas) {
        if (replacesTerminating) {
            return replicas;
        }
        return "Replace".equals(concurrencyPolicy) ? Math.min(replicas, podsPerJob) : 0;
    }

    @Override
    public String terminatingReason() {
        return replacesTerminating ? "each running pod's replacement may start while it shuts down"
                : "Replace".equals(concurrencyPolicy) ? "the pods of the Job Replace stops, shutting down"
                        : "a pod's replacement waits until it is gone, and one Job ends before the next starts";
    }

    @Override
    public String counted() {
        return "pods its Jobs run at once:";
    }

    @Override
    public String describe(long replicas) {
        return "CronJob: " + how + ", " + podsPerJob + (podsPerJob == 1 ? " pod" : " pods") + " each"
                + ("Replace".equals(concurrencyPolicy) ? "; Replace stops a running Job as the next starts, its pods "
                        + "shutting down beside the new ones" : "")
                + (replacesTerminating ? "; podReplacementPolicy TerminatingOrFailed starts a pod's replacement "
                        + "while it still shuts down (Failed would wait, and free those connections)" : "");
    }
}
