package io.poolbudget.cache;

import io.poolbudget.decide.SettledWorkloads;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Lifecycle;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;

/**
 * The part of a pod spec (a workload's template, or a sized pod's own) that the operator reads, for the informer
 * stores ({@link PrunedStore}). Of each container: its name (which containers to size), its {@code env} and the operator's ConfigMaps in its {@code envFrom} (the sizes
 * written, a value another manager sets, a variable taken from a ConfigMap), its {@code preStop} hook and the initial
 * delays of its readiness and startup probes (how long an old pod outlives a rollout step: {@code planning.Shutdown});
 * of the pod spec, its {@code terminationGracePeriodSeconds} (how long an unmarked pod may hold its pool once told to
 * stop: {@link SettledWorkloads#departing}).
 * Everything else, which in a real application's Deployment is most of it (init containers, volumes, images, commands,
 * ports, resources, the other probe settings, security contexts, affinity, tolerations), is never read and not kept.
 * A StatefulSet's {@code volumeClaimTemplates} go the same way.
 * <p>
 * Writes never start from a cached object (they apply partial objects of their own), so nothing dropped here can be
 * written back. What the sizing reads of a workload is the same before and after ({@code PodSpecsTest}).
 */
public final class PodSpecs {
    private PodSpecs() {}

    /** A workload's pod template (null: nothing to do) keeps only the part of its spec the operator reads. */
    public static void keepReadPart(PodTemplateSpec template) {
        if (template != null) {
            template.setSpec(readPart(template.getSpec()));
        }
    }

    public static PodSpec readPart(PodSpec spec) {
        if (spec == null) {
            return null;
        }
        PodSpec kept = new PodSpec();
        kept.setTerminationGracePeriodSeconds(spec.getTerminationGracePeriodSeconds());
        // a pod on its node's network has the node's address: the database's clients there are not told by it
        kept.setHostNetwork(spec.getHostNetwork());
        kept.setContainers(spec.getContainers() == null ? null
                : spec.getContainers().stream().map(PodSpecs::container).toList());
        return kept;
    }

    private static Container container(Container c) {
        if (c == null) {
            return null;
        }
        Container kept = new Container();
        kept.setName(c.getName());
        kept.setEnv(c.getEnv());
        // mode EnvFrom: a command or args that refer to the operator's values (kept only then)
        if (refersToOurs(c.getCommand()) || refersToOurs(c.getArgs())) {
            kept.setCommand(c.getCommand());
            kept.setArgs(c.getArgs());
        }
        if (c.getEnvFrom() != null) { // mode EnvFrom: only the operator's ConfigMaps, and under which prefix
            var ours = c.getEnvFrom().stream().filter(s -> s.getConfigMapRef() != null
                    && s.getConfigMapRef().getName() != null
                    && s.getConfigMapRef().getName().startsWith(io.poolbudget.planning.Owner.CONFIG_MAP_PREFIX))
                    .map(s -> new io.fabric8.kubernetes.api.model.EnvFromSourceBuilder().withPrefix(s.getPrefix())
                            .withNewConfigMapRef().withName(s.getConfigMapRef().getName()).endConfigMapRef().build())
                    .toList();
            kept.setEnvFrom(ours.isEmpty() ? null : ours);
        }
        if (c.getLifecycle() != null && c.getLifecycle().getPreStop() != null) {
            Lifecycle lifecycle = new Lifecycle();
            lifecycle.setPreStop(c.getLifecycle().getPreStop());
            kept.setLifecycle(lifecycle);
        }
        kept.setReadinessProbe(delayOnly(c.getReadinessProbe()));
        kept.setStartupProbe(delayOnly(c.getStartupProbe()));
        return kept;
    }

    private static boolean refersToOurs(java.util.List<String> texts) {
        return texts != null && texts.stream().anyMatch(t -> t != null && t.contains("POOLBUDGET_"));
    }

    private static Probe delayOnly(Probe probe) {
        if (probe == null) {
            return null;
        }
        Probe kept = new Probe();
        kept.setInitialDelaySeconds(probe.getInitialDelaySeconds());
        return kept;
    }
}
