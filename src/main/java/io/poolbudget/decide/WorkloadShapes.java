package io.poolbudget.decide;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.poolbudget.api.argo.ArgoRollout;
import io.poolbudget.planning.MoreKinds;
import io.poolbudget.planning.Workload;
import io.poolbudget.planning.Workloads;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Where each workload kind keeps what a pass reads: its pod template, which pods are its own, whether its controller
 * has rolled the current template out, and what its status counts. One place per kind, so that the rest of the
 * operator reads a Deployment, a StatefulSet, an Argo Rollout and a CronJob alike, and lists the kinds from here
 * ({@link WorkloadKind#values()} with {@link #type}).
 */
public final class WorkloadShapes {
    /** The label the Job controller puts on a Job's pods. */
    static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";

    /**
     * A kind's class (what its informer caches, what a manifest of it is read as), an empty object of it, and whether
     * resize mode Live reaches its pods (an Argo Rollout's CRD keeps a template's volumes as one list that server-side
     * apply replaces whole; a CronJob's pods are its Jobs', each of them short).
     */
    private record Type(Class<? extends HasMetadata> type, Supplier<HasMetadata> empty, boolean live) {}

    private static final Map<WorkloadKind, Type> TYPES = new EnumMap<>(Map.of(
            WorkloadKind.Deployment, new Type(Deployment.class, Deployment::new, true),
            WorkloadKind.StatefulSet, new Type(StatefulSet.class, StatefulSet::new, true),
            WorkloadKind.Rollout, new Type(ArgoRollout.class, ArgoRollout::new, false),
            WorkloadKind.CronJob, new Type(CronJob.class, CronJob::new, false)));

    private WorkloadShapes() {}

    /** The class of a kind's objects: what its informer caches and a manifest of it is read as. */
    public static Class<? extends HasMetadata> type(WorkloadKind kind) {
        return TYPES.get(kind).type();
    }

    /** Whether resize mode Live can reach the pods of a target of this kind. */
    public static boolean resizesLive(WorkloadKind kind) {
        return TYPES.get(kind).live();
    }

    /** Whether objects of this class are workloads of a target kind. */
    public static boolean isWorkload(Class<?> type) {
        return TYPES.values().stream().anyMatch(t -> t.type() == type);
    }

    /** The target kind a manifest's {@code kind} field names, null for any other kind. */
    public static WorkloadKind named(String kind) {
        return TYPES.keySet().stream().filter(k -> k.name().equals(kind)).findFirst().orElse(null);
    }

    /** The target kind of a workload object (a cached object may lack its kind field); null for any other object. */
    public static WorkloadKind kind(HasMetadata o) {
        for (var t : TYPES.entrySet()) {
            if (t.getValue().type().isInstance(o)) {
                return t.getKey();
            }
        }
        return null;
    }

    /** An object of the kind with this metadata and nothing else: no spec, no status. */
    public static HasMetadata withOnly(WorkloadKind kind, io.fabric8.kubernetes.api.model.ObjectMeta meta) {
        HasMetadata o = TYPES.get(kind).empty().get();
        o.setMetadata(meta);
        return o;
    }

    /** A workload object without its spec (a skeleton a store keeps: {@link #withOnly}); false for any other object. */
    public static boolean withoutSpec(HasMetadata o) {
        return o instanceof Deployment d ? d.getSpec() == null
                : o instanceof StatefulSet s ? s.getSpec() == null
                        : o instanceof CronJob c ? c.getSpec() == null
                                : o instanceof ArgoRollout r && r.getSpec() == null;
    }

    public static Workload workload(HasMetadata o, List<Workloads.Scaler> scalers) {
        if (o instanceof Deployment d) {
            return Workloads.of(d, scalers);
        } else if (o instanceof StatefulSet s) {
            return Workloads.of(s, scalers);
        } else if (o instanceof ArgoRollout r) {
            return MoreKinds.of(r, scalers);
        } else if (o instanceof CronJob c) {
            return MoreKinds.of(c, scalers);
        }
        throw new IllegalStateException("not a workload kind: " + o.getClass().getName());
    }

    /**
     * The workload's pod template, null where it has none (a skeleton kept without its spec, a manifest without a
     * template, a Rollout that runs another workload's).
     */
    public static PodTemplateSpec template(HasMetadata o) {
        if (o instanceof Deployment d) {
            return d.getSpec() == null ? null : d.getSpec().getTemplate();
        } else if (o instanceof StatefulSet s) {
            return s.getSpec() == null ? null : s.getSpec().getTemplate();
        } else if (o instanceof ArgoRollout r) {
            return r.getSpec() == null ? null : r.getSpec().template;
        } else if (o instanceof CronJob c) {
            var job = c.getSpec() == null || c.getSpec().getJobTemplate() == null ? null
                    : c.getSpec().getJobTemplate().getSpec();
            return job == null ? null : job.getTemplate();
        }
        throw new IllegalStateException("not a workload kind: " + o.getClass().getName());
    }

    /**
     * Whether a pod is the workload's: its selector matches the pod's labels; a CronJob's pods are those of the Jobs
     * it starts, named after it and the minute it started them.
     */
    static boolean owns(HasMetadata o, Pod p) {
        var labels = p.getMetadata().getLabels();
        if (o instanceof CronJob c) {
            // a finished Job's pods stay for its history, holding nothing
            String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
            if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                return false;
            }
            String job = labels == null ? null : labels.getOrDefault(JOB_NAME_LABEL, labels.get("job-name"));
            String prefix = c.getMetadata().getName() + "-";
            return job != null && job.startsWith(prefix) && job.substring(prefix.length()).matches("[0-9]+");
        }
        LabelSelector selector = o instanceof Deployment d ? d.getSpec().getSelector()
                : o instanceof StatefulSet s ? s.getSpec().getSelector()
                        : o instanceof ArgoRollout r && r.getSpec() != null ? r.getSpec().selector : null;
        return selector != null && Workloads.matches(selector, labels);
    }

    /**
     * The workload's controller has seen its current spec and every replica is updated and available. A CronJob
     * changes no running Job: its pods of older templates are gone when their Jobs end, which the pods tell.
     */
    static boolean controllerDone(HasMetadata o) {
        if (o instanceof Deployment d) {
            int want = d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
            var st = d.getStatus();
            return st != null && st.getObservedGeneration() != null
                    && st.getObservedGeneration() >= d.getMetadata().getGeneration()
                    && n(st.getUpdatedReplicas()) == want && n(st.getReplicas()) == want
                    && n(st.getAvailableReplicas()) >= want;
        } else if (o instanceof StatefulSet s) {
            int want = s.getSpec().getReplicas() == null ? 1 : s.getSpec().getReplicas();
            var st = s.getStatus();
            return st != null && st.getObservedGeneration() != null
                    && st.getObservedGeneration() >= s.getMetadata().getGeneration()
                    && Objects.equals(st.getCurrentRevision(), st.getUpdateRevision())
                    && n(st.getUpdatedReplicas()) == want && n(st.getReadyReplicas()) >= want;
        } else if (o instanceof ArgoRollout r) {
            int want = r.getSpec() == null || r.getSpec().replicas == null ? 1 : r.getSpec().replicas;
            var st = r.getStatus();
            Long observed = st == null ? null : generation(st.observedGeneration);
            return observed != null && observed >= r.getMetadata().getGeneration()
                    && "Healthy".equals(st.phase) && st.currentPodHash != null
                    && st.currentPodHash.equals(st.stableRS) && n(st.updatedReplicas) == want
                    && n(st.replicas) == want && n(st.availableReplicas) >= want;
        }
        return true;
    }

    /** {@code kubectl rollout pause} on a Deployment, or a paused Argo Rollout: template changes do not roll out. */
    static boolean paused(HasMetadata o) {
        return o instanceof Deployment d ? Boolean.TRUE.equals(d.getSpec().getPaused())
                : o instanceof ArgoRollout r && r.getSpec() != null && Boolean.TRUE.equals(r.getSpec().paused);
    }

    /**
     * What the workload's status counts: the generation it has seen (null where it tells none), its pods and those of
     * the current template; null for a kind whose status counts no pods. A CronJob's status lists its running Jobs:
     * each runs its parallelism, none of them counted as current.
     */
    record StatusCounts(Long observed, int replicas, int updated) {}

    static StatusCounts counts(HasMetadata o, Workload w) {
        if (o instanceof Deployment d) {
            return d.getStatus() == null ? null : new StatusCounts(d.getStatus().getObservedGeneration(),
                    n(d.getStatus().getReplicas()), n(d.getStatus().getUpdatedReplicas()));
        } else if (o instanceof StatefulSet s) {
            return s.getStatus() == null ? null : new StatusCounts(s.getStatus().getObservedGeneration(),
                    n(s.getStatus().getReplicas()), n(s.getStatus().getUpdatedReplicas()));
        } else if (o instanceof ArgoRollout r) {
            return r.getStatus() == null ? null : new StatusCounts(generation(r.getStatus().observedGeneration),
                    n(r.getStatus().replicas), n(r.getStatus().updatedReplicas));
        } else if (o instanceof CronJob c) {
            int active = c.getStatus() == null || c.getStatus().getActive() == null ? 0
                    : c.getStatus().getActive().size();
            long perJob = w.rollout() instanceof io.poolbudget.sizing.Batch b ? b.podsPerJob() : 1;
            return new StatusCounts(null, (int) Math.min(Integer.MAX_VALUE, active * perJob), 0);
        }
        return null;
    }

    private static Long generation(String observed) {
        try {
            return observed == null ? null : Long.valueOf(observed.trim());
        } catch (NumberFormatException e) {
            return null; // Argo before v1.0 wrote a hash here: not a generation
        }
    }

    /** A partial workload of {@code kind}: its metadata, and its pod template where {@code template} is not null. */
    static HasMetadata partial(WorkloadKind kind,
            io.fabric8.kubernetes.api.model.ObjectMeta meta,
            PodTemplateSpec template) {
        return switch (kind) {
            case Deployment -> template == null
                    ? new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder().withMetadata(meta).build()
                    : new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder().withMetadata(meta).withNewSpec()
                            .withTemplate(template).endSpec().build();
            case StatefulSet -> template == null
                    ? new io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder().withMetadata(meta).build()
                    : new io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder().withMetadata(meta).withNewSpec()
                            .withTemplate(template).endSpec()
                            .build();
            case CronJob -> template == null
                    ? new io.fabric8.kubernetes.api.model.batch.v1.CronJobBuilder().withMetadata(meta).build()
                    : new io.fabric8.kubernetes.api.model.batch.v1.CronJobBuilder().withMetadata(meta).withNewSpec()
                            .withNewJobTemplate().withNewSpec().withTemplate(template).endSpec().endJobTemplate()
                            .endSpec().build();
            case Rollout -> {
                var r = new io.poolbudget.api.argo.ArgoRollout();
                r.setMetadata(meta);
                if (template != null) {
                    r.setSpec(new io.poolbudget.api.argo.ArgoRollout.Spec());
                    r.getSpec().template = template;
                }
                yield r;
            }
        };
    }

    static int n(Integer value) {
        return value == null ? 0 : value;
    }
}
