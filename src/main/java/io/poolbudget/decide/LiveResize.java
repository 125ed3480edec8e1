package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.ResizeMode;
import io.poolbudget.planning.BudgetHoldings;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Resize mode Live, the parts that are data: what the operator adds to a pod template so that its pods take a new size
 * without a restart (the agent, copied by an init container from the operator's own image; the pod's own annotation
 * {@code live-size.poolbudget.io/<policy>} as a file through the downward API; the JVM option), the pod annotation it
 * publishes a size with ({@link Owner#LIVE_PREFIX}), and what a pod holds given its agent's last report
 * ({@link AgentReport}).
 */
public final class LiveResize {
    public static final int AGENT_PORT = 9477;
    static final String AGENT_VOLUME = "poolbudget-agent";
    static final String AGENT_DIR = "/poolbudget-agent";
    static final String AGENT_JAR = AGENT_DIR + "/poolbudget-agent.jar";
    static final String TOOL_OPTIONS = "JAVA_TOOL_OPTIONS";
    static final String JDK_OPTIONS = "JDK_JAVA_OPTIONS";
    /** How long a new pod's JVM waits for its first published size before its pools are built. */
    static final int WAIT_MS = 20_000;

    private LiveResize() {}

    /** The policy resizes live: resize Live, and the operator knows its own image (the agent's source). */
    public static boolean on(InjectionSpec spec, String agentImage) {
        return spec != null && ResizeMode.of(spec) == ResizeMode.Live && agentImage != null;
    }

    public static String annotation(Owner owner) {
        return Owner.LIVE_PREFIX + owner.key();
    }

    /** The size published on a pod or a workload by this policy; null where none is. */
    public static Integer published(ObjectMeta meta, Owner owner) {
        String value = Owner.annotation(meta, annotation(owner));
        try {
            return value == null ? null : Integer.valueOf(value.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static String sizeVolume(Owner owner) {
        return Owner.shortened("poolbudget-live-" + owner.key(), 63);
    }

    static String sizeDir(Owner owner) {
        return "/etc/poolbudget/" + owner.key();
    }

    /** The JVM option that loads the agent, reading this policy's size file. */
    static String javaAgent(Owner owner) {
        return "-javaagent:" + AGENT_JAR + "=file=" + sizeDir(owner) + "/size,waitMs=" + WAIT_MS + ",port="
                + AGENT_PORT;
    }

    /**
     * The variable the agent's option goes into for one container: {@code JAVA_TOOL_OPTIONS}, unless the container sets
     * it itself (then {@code JDK_JAVA_OPTIONS}, which the JVM reads as well, so the user's options stay whole); null
     * when it sets both: the agent cannot be added without taking a value of the user's.
     */
    public static String optionsVariable(PodSpec pod, String container, Owner owner) {
        for (String name : List.of(TOOL_OPTIONS, JDK_OPTIONS)) {
            String value = env(pod, container, name);
            if (value == null || value.equals(javaAgent(owner))) {
                return name;
            }
        }
        return null;
    }

    /** Every chosen container of the template loads this policy's agent: a published size reaches its pods. */
    public static boolean agentIn(PodSpec pod, List<String> containers, Owner owner) {
        return !containers.isEmpty() && containers.stream().allMatch(c -> javaAgent(owner).equals(env(pod, c,
                TOOL_OPTIONS)) || javaAgent(owner).equals(env(pod, c, JDK_OPTIONS)));
    }

    /** Why the agent cannot go into the template (a container sets both JVM option variables), or null. */
    public static String cannotAdd(PodSpec pod, List<String> containers, Owner owner) {
        for (String c : containers) {
            if (optionsVariable(pod, c, owner) == null) {
                return "container " + c + " sets both JAVA_TOOL_OPTIONS and JDK_JAVA_OPTIONS, so the agent's "
                        + "-javaagent option would replace one of yours";
            }
        }
        return null;
    }

    /**
     * Adds the agent to a template patch: {@code patched} are the chosen containers' partial containers (their
     * variables), to which the JVM option and the two mounts are added; returned are the init container and the
     * volumes for the pod spec.
     */
    static Parts parts(List<Container> patched, PodSpec current, Owner owner, String image) {
        for (Container c : patched) {
            String variable = optionsVariable(current, c.getName(), owner);
            c.getEnv().add(new EnvVar(variable == null ? JDK_OPTIONS : variable, javaAgent(owner), null));
            c.setVolumeMounts(new ArrayList<>(List.of(
                    new VolumeMountBuilder().withName(AGENT_VOLUME).withMountPath(AGENT_DIR).withReadOnly(true)
                            .build(),
                    new VolumeMountBuilder().withName(sizeVolume(owner)).withMountPath(sizeDir(owner))
                            .withReadOnly(true).build())));
        }
        // fits the restricted Pod Security Standard and a namespace that requires limits: it copies one small file
        Container init = new ContainerBuilder().withName("poolbudget-agent").withImage(image)
                .withCommand("java", "-XX:-UsePerfData", "-XX:TieredStopAtLevel=1", "-cp", "/poolbudget/agent.jar",
                        "io.poolbudget.agent.Install", AGENT_DIR)
                .withVolumeMounts(new VolumeMountBuilder().withName(AGENT_VOLUME).withMountPath(AGENT_DIR).build())
                .withNewSecurityContext().withAllowPrivilegeEscalation(false).withRunAsNonRoot(true)
                .withReadOnlyRootFilesystem(true).withNewCapabilities().addToDrop("ALL").endCapabilities()
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile().endSecurityContext()
                .withNewResources().addToRequests("cpu", new Quantity("10m"))
                .addToRequests("memory", new Quantity("32Mi"))
                .addToLimits("memory", new Quantity("64Mi")).endResources()
                .build();
        Volume agent = new VolumeBuilder().withName(AGENT_VOLUME).withNewEmptyDir().endEmptyDir().build();
        Volume size = new VolumeBuilder().withName(sizeVolume(owner)).withNewDownwardAPI().addNewItem()
                .withPath("size").withNewFieldRef().withFieldPath("metadata.annotations['" + annotation(owner) + "']")
                .endFieldRef().endItem().endDownwardAPI().build();
        return new Parts(init, List.of(agent, size));
    }

    record Parts(Container init, List<Volume> volumes) {}

    /** The partial pod that publishes {@code size} to it (applied under the policy's field manager). */
    public static Pod podPatch(Pod pod, Owner owner, int size) {
        return new PodBuilder().withNewMetadata().withName(pod.getMetadata().getName())
                .withNamespace(pod.getMetadata().getNamespace()).withUid(pod.getMetadata().getUid())
                .addToAnnotations(annotation(owner), Integer.toString(size)).endMetadata().build();
    }

    /**
     * The largest pool a live-mode pod may hold: what its agent confirmed, or the size just published to it if
     * larger; without a confirmation, the most of what it started with ({@code started}), what was published to it,
     * and what it last confirmed. While a change is in flight a pod counts at max(old, new).
     */
    public static Integer held(Integer started, Integer published, AgentReport report) {
        if (report != null && report.confirmed()) {
            return max(report.published(), published);
        }
        Integer most = max(started, published);
        return report == null ? most : max(most, report.lastConfirmed());
    }

    /**
     * What a sized pod counts at against a shared budget ({@link BudgetHoldings}), its agents' last reports by pod uid
     * given ({@code reports}, null where none): {@link #held} where a size was published to it or its agent answered,
     * else the size it started with.
     */
    public static BudgetHoldings.Held holding(java.util.function.Function<String, AgentReport> reports) {
        return (uid, started, published) -> {
            AgentReport report = uid == null ? null : reports.apply(uid);
            return published == null && report == null ? started : held(started, published, report);
        };
    }

    /** Why a pod does not yet hold {@code size}, or null when its agent confirmed it. */
    static String pendingReason(Integer published, AgentReport report, int size) {
        if (!Objects.equals(published, size)) {
            return "size " + size + " not yet published to it";
        }
        if (report == null) {
            return "its agent has not answered yet";
        }
        if (report.problem() != null) {
            return report.problem();
        }
        if (!Objects.equals(report.published(), size)) {
            return "its agent still reads size " + report.published() + " (the kubelet has not refreshed the file)";
        }
        return report.confirmed() ? null : "its pools hold " + report.holds() + " connections, waiting for busy "
                + "ones to be returned";
    }

    private static Integer max(Integer a, Integer b) {
        return a == null ? b : b == null ? a : Math.max(a, b);
    }

    /** The variable's value in the container, "valueFrom" where it is set from elsewhere, null where unset. */
    private static String env(PodSpec pod, String container, String variable) {
        EnvVar e = InjectionReads.envEntry(pod, container, variable);
        return e == null ? null : e.getValue() != null ? e.getValue() : "valueFrom";
    }
}
