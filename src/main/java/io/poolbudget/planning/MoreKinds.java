package io.poolbudget.planning;

import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.poolbudget.api.argo.ArgoRollout;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.sizing.Batch;
import io.poolbudget.sizing.BlueGreen;
import io.poolbudget.sizing.Canary;
import io.poolbudget.sizing.CronSchedule;
import io.poolbudget.sizing.Limits;
import io.poolbudget.sizing.Rollout;
import java.util.ArrayList;
import java.util.List;

/** Reads an Argo Rollout's and a CronJob's pods at their most, with their controllers' own defaults. */
public final class MoreKinds {
    /** Argo Rollouts' default scaleDownDelaySeconds. */
    static final int SCALE_DOWN_DELAY = 30;

    private MoreKinds() {}

    public static Workload of(ArgoRollout r, List<Workloads.Scaler> scalers) {
        var meta = r.getMetadata();
        var spec = r.getSpec();
        int replicas = spec == null || spec.replicas == null ? 1 : spec.replicas;
        var template = spec == null ? null : spec.template;
        Workload w = Workloads.withScaler(WorkloadKind.Rollout, meta.getNamespace(), meta.getName(),
                meta.getLabels(), replicas, strategy(spec), scalers,
                template == null ? Shutdown.NONE : Shutdown.of(template, spec.minReadySeconds),
                Workloads.workers(template), Workloads.clientLimit(template));
        return spec != null && spec.workloadRef != null ? w.withProblem("Rollout/" + meta.getName()
                + " runs the pod template of the workload its spec.workloadRef names, which the operator does not "
                + "write through the Rollout: give the Rollout its own spec.template, or size that workload") : w;
    }

    private static Rollout strategy(ArgoRollout.Spec spec) {
        var s = spec == null || spec.strategy == null ? null : spec.strategy;
        if (s != null && s.blueGreen != null) {
            return new BlueGreen(s.blueGreen.previewReplicaCount, s.blueGreen.scaleDownDelaySeconds == null
                    ? SCALE_DOWN_DELAY : s.blueGreen.scaleDownDelaySeconds);
        }
        var c = s == null || s.canary == null ? new ArgoRollout.CanaryStrategy() : s.canary;
        List<Integer> weights = new ArrayList<>();
        long scaleReplicas = 0;
        int scaleWeight = 0;
        for (var step : c.steps == null ? List.<ArgoRollout.Step>of() : c.steps) {
            if (step == null) {
                continue;
            }
            if (step.setWeight != null) {
                weights.add(step.setWeight);
            }
            if (step.setCanaryScale != null) {
                scaleReplicas = Math.max(scaleReplicas, step.setCanaryScale.replicas == null ? 0
                        : step.setCanaryScale.replicas);
                scaleWeight = Math.max(scaleWeight, step.setCanaryScale.weight == null ? 0
                        : step.setCanaryScale.weight);
            }
        }
        var surge = Workloads.amount(c.maxSurge, "spec.strategy.canary.maxSurge", 25);
        var unavailable = Workloads.amount(c.maxUnavailable, "spec.strategy.canary.maxUnavailable", 25);
        if (surge.value() == 0 && unavailable.value() == 0) {
            throw new IllegalArgumentException("spec.strategy.canary: maxSurge and maxUnavailable must not both be 0 "
                    + "(the Rollout could never replace a pod); set one of them above 0");
        }
        return new Canary(surge, unavailable, c.trafficRouting != null, Boolean.TRUE.equals(c.dynamicStableScale),
                weights, scaleReplicas, scaleWeight,
                c.scaleDownDelaySeconds == null ? SCALE_DOWN_DELAY : c.scaleDownDelaySeconds,
                c.trafficRouting != null && c.trafficRouting.get("maxTrafficWeight") instanceof Number m
                        ? m.intValue() : 100,
                c.minPodsPerReplicaSet == null ? 0 : c.minPodsPerReplicaSet);
    }

    public static Workload of(CronJob cj, List<Workloads.Scaler> scalers) {
        var meta = cj.getMetadata();
        var spec = cj.getSpec();
        var job = spec == null || spec.getJobTemplate() == null ? null : spec.getJobTemplate().getSpec();
        var template = job == null ? null : job.getTemplate();
        int parallelism = job == null || job.getParallelism() == null ? 1 : Math.max(0, job.getParallelism());
        long perJob = job == null || job.getCompletions() == null ? parallelism
                : Math.min(parallelism, Math.max(0, job.getCompletions()));
        String policy = spec == null || spec.getConcurrencyPolicy() == null ? "Allow" : spec.getConcurrencyPolicy();
        boolean replacesTerminating = job == null || (job.getPodReplacementPolicy() == null
                ? job.getPodFailurePolicy() == null : "TerminatingOrFailed".equals(job.getPodReplacementPolicy()));
        Long deadline = job == null ? null : job.getActiveDeadlineSeconds();
        String problem = null;
        long jobs = 1;
        String how = "concurrencyPolicy " + policy + ": one Job at a time";
        if ("Allow".equals(policy)) {
            if (deadline == null) {
                problem = "CronJob/" + meta.getName() + " lets its Jobs overlap without bound (concurrencyPolicy "
                        + "Allow, the default, and no spec.jobTemplate.spec.activeDeadlineSeconds): set that deadline "
                        + "(the overlap is counted from it), concurrencyPolicy Forbid or Replace, or this target's "
                        + "basis Fixed with the pods to plan for";
                how = "concurrencyPolicy Allow without a deadline: planned as one Job";
            } else {
                // a Job stopped at its deadline still shuts down for its grace period; a time zone's fall-back
                // hour repeats its starts
                long grace = template == null || template.getSpec() == null
                        || template.getSpec().getTerminationGracePeriodSeconds() == null ? 30
                                : template.getSpec().getTerminationGracePeriodSeconds();
                boolean zoned = spec.getTimeZone() != null && !spec.getTimeZone().matches("(Etc/)?UTC");
                try {
                    jobs = CronSchedule.mostStartsWithin(spec.getSchedule(), deadline + grace + (zoned ? 3600 : 0));
                    how = "concurrencyPolicy Allow: up to " + jobs + (jobs == 1 ? " Job" : " Jobs") + " at once ("
                            + "schedule '" + spec.getSchedule() + "' starts that many within activeDeadlineSeconds "
                            + deadline + " + a " + grace + " s grace period" + (zoned ? " + the hour timeZone "
                                    + spec.getTimeZone() + " repeats when its clocks go back" : "")
                            + ")";
                } catch (IllegalArgumentException e) {
                    problem = "CronJob/" + meta.getName() + " spec.schedule: " + e.getMessage();
                }
            }
        }
        long pods = Math.min(Limits.REPLICAS, jobs * perJob); // jobs: at most a start a minute over two years
        Workload w = Workloads.withScaler(WorkloadKind.CronJob, meta.getNamespace(), meta.getName(), meta.getLabels(),
                (int) pods, new Batch(perJob, jobs, policy, replacesTerminating, how), List.of(),
                template == null ? Shutdown.NONE : Shutdown.of(template, null), Workloads.workers(template),
                Workloads.clientLimit(template));
        return problem == null ? w : w.withProblem(problem);
    }
}
