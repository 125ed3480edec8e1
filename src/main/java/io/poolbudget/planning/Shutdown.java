package io.poolbudget.planning;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import java.util.List;
import java.util.regex.Pattern;

/**
 * How long an old pod of a workload holds its pool after it is told to stop, against how soon the
 * next rollout step can start: the {@code preStop} sleep its template declares (the app's drain after
 * it is not known here), and the least time a new pod needs before the Deployment controller moves
 * on ({@code minReadySeconds} plus the time to Ready: observed on its pods, else the readiness
 * probe's initial delay). A shutdown longer than a step lets old pods of several steps terminate at
 * once; {@link #steps} says how many.
 */
public record Shutdown(int preStopSeconds, int minReadySeconds, int readinessDelaySeconds) {
    public static final Shutdown NONE = new Shutdown(0, 0, 0);
    private static final Pattern SLEEP = Pattern.compile("(?:^|[\\s;&/])sleep\\s+(\\d{1,6})s?(?=$|[\\s;&])");

    public static Shutdown of(PodTemplateSpec template, Integer minReadySeconds) {
        if (template == null || template.getSpec() == null || template.getSpec().getContainers() == null) {
            return NONE;
        }
        int preStop = 0;
        int delay = 0;
        for (Container c : template.getSpec().getContainers()) {
            var lifecycle = c.getLifecycle();
            preStop = Math.max(preStop, lifecycle == null ? 0 : sleepSeconds(lifecycle.getPreStop()));
            delay = Math.max(delay, Math.max(initialDelay(c.getReadinessProbe()), initialDelay(c.getStartupProbe())));
        }
        return new Shutdown(preStop, minReadySeconds == null ? 0 : Math.max(0, minReadySeconds), delay);
    }

    /**
     * The rollout steps one old pod's shutdown may span: 1 without a preStop sleep, else
     * ceil(preStop ÷ step). A step is minReadySeconds plus the time to Ready: {@code observedReadySeconds},
     * the quickest seen on the workload's pods (at least 1 s), or, before any was seen, the readiness
     * probe's initial delay; with neither (nothing known yet), 1 step, and what is seen terminating
     * during the rollout teaches the plan instead.
     */
    public int steps(Integer observedReadySeconds) {
        if (preStopSeconds <= 0) {
            return 1;
        }
        long step = observedReadySeconds != null
                ? Math.max(1L, (long) minReadySeconds + Math.max(0, observedReadySeconds))
                : (long) minReadySeconds + readinessDelaySeconds;
        if (step <= 0) {
            return 1;
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, (preStopSeconds + step - 1) / step));
    }

    /** A preStop hook's sleep: the sleep action, or an exec command that runs {@code sleep N}. */
    static int sleepSeconds(LifecycleHandler preStop) {
        if (preStop == null) {
            return 0;
        }
        if (preStop.getSleep() != null && preStop.getSleep().getSeconds() != null) {
            return (int) Math.min(Integer.MAX_VALUE, Math.max(0, preStop.getSleep().getSeconds()));
        }
        List<String> command = preStop.getExec() == null ? null : preStop.getExec().getCommand();
        if (command == null || command.isEmpty()) {
            return 0;
        }
        var m = SLEEP.matcher(String.join(" ", command));
        int most = 0;
        while (m.find()) {
            most = Math.max(most, Integer.parseInt(m.group(1)));
        }
        return most;
    }

    private static int initialDelay(Probe probe) {
        return probe == null || probe.getInitialDelaySeconds() == null ? 0
                : Math.max(0, probe.getInitialDelaySeconds());
    }
}
