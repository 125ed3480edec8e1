package io.poolbudget.planning;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.LifecycleHandlerBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShutdownTest {

    private static PodTemplateSpec template(LifecycleHandler preStop, Integer readinessDelay) {
        return new PodTemplateSpecBuilder().withNewSpec().addNewContainer().withName("app").withNewLifecycle()
                .withPreStop(preStop).endLifecycle().withNewReadinessProbe().withInitialDelaySeconds(readinessDelay)
                .endReadinessProbe().endContainer().addNewContainer().withName("sidecar").endContainer().endSpec()
                .build();
    }

    private static LifecycleHandler sleep(long seconds) {
        return new LifecycleHandlerBuilder().withNewSleep().withSeconds(seconds).endSleep().build();
    }

    private static LifecycleHandler exec(String... command) {
        return new LifecycleHandlerBuilder().withNewExec().withCommand(command).endExec().build();
    }

    @Test
    void readsThePreStopSleepFromTheSleepActionOrAnExecSleep() {
        assertThat(Shutdown.of(template(sleep(12), null), null).preStopSeconds()).isEqualTo(12);
        assertThat(Shutdown.of(template(exec("sleep", "5"), null), null).preStopSeconds()).isEqualTo(5);
        assertThat(Shutdown.of(template(exec("/bin/sh", "-c", "sleep 7; kill -TERM 1"), null), null).preStopSeconds())
                .isEqualTo(7);
        assertThat(Shutdown.of(template(exec("/bin/sleep", "9s"), null), null).preStopSeconds()).isEqualTo(9);
        assertThat(Shutdown.of(template(exec("nosleep", "3"), null), null).preStopSeconds()).isZero();
        assertThat(Shutdown.of(template(exec("/app/drain.sh"), null), null).preStopSeconds()).isZero();
        assertThat(Shutdown.of(template(null, null), null)).isEqualTo(Shutdown.NONE);
        assertThat(Shutdown.of(null, 5)).isEqualTo(Shutdown.NONE);
        assertThat(Shutdown.of(template(sleep(3), 10), 4)).isEqualTo(new Shutdown(3, 4, 10));
    }

    @ParameterizedTest(name = "preStop {0}s, minReady {1}s, readiness delay {2}s, seen Ready in {3}s: {4} steps")
    @CsvSource(nullValues = "-", value = {
            " 0, 0,  0,  -, 1", // no preStop: one step
            "12, 0,  0,  8, 2", // measured here: a JVM pod Ready in ~8 s, a 12 s preStop spans 2 steps
            " 3, 0,  0,  8, 1",
            "12, 0,  0,  0, 12", // pods Ready at once (counted as 1 s): every second is a step
            "12, 5,  0,  1, 2", // minReadySeconds lengthens a step
            "12, 0, 10,  -, 2", // before any pod is seen Ready: the readiness delay bounds a step
            "12, 0,  0,  -, 1", // nothing known yet: one step, and what is seen terminating teaches
    })
    void stepsAShutdownSpans(int preStop, int minReady, int delay, Integer observed, int steps) {
        assertThat(new Shutdown(preStop, minReady, delay).steps(observed)).isEqualTo(steps);
    }
}
