package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class PeakPodsTest {

    @ParameterizedTest(name = "{0} replicas: surge {1}, unavailable {2}")
    @CsvSource({
            // 25% of 1 = 0.25 -> surge 1 (up), unavailable 0 (down)
            "1, 1, 0",
            // 25% of 3 = 0.75 -> 1 / 0
            "3, 1, 0",
            // 25% of 10 = 2.5 -> 3 / 2
            "10, 3, 2",
            // 25% of 0 -> 0 / 0, and Kubernetes' fencepost makes unavailable 1
            "0, 0, 1"})
    void percentSurgeRoundsUpAndUnavailableDown(int replicas, int surge, int unavailable) {
        var rolling = Rollout.RollingUpdate.DEFAULT;
        assertThat(rolling.surge(replicas)).isEqualTo(surge);
        assertThat(rolling.unavailable(replicas)).isEqualTo(unavailable);
    }

    @Test
    void fencepostAllowsOneUnavailableWhenBothResolveToZero() {
        var rolling = new Rollout.RollingUpdate(IntOrPercent.of(0), IntOrPercent.percent(10));
        assertThat(rolling.unavailable(5)).isEqualTo(1); // 10% of 5 = 0.5 -> 0 -> fencepost 1
        assertThat(rolling.unavailable(10)).isEqualTo(1); // 10% of 10 = 1
        assertThat(rolling.unavailable(20)).isEqualTo(2);
    }

    @Test
    void tenReplicasWithDefaultStrategyPeakAtEighteen() {
        // 10 + 3 surge + one step (3 + 2) of old pods still terminating
        var peak = PeakPods.of(TargetInput.builder("d").replicas(10).build());
        assertThat(peak.total()).isEqualTo(18);
        assertThat(peak.explanation()).contains("peak pods 18 = 10 (current replicas 10) + 3 surge + 5 terminating");
    }

    @Test
    void terminatingAllowanceNeverExceedsTheOldPods() {
        // 1 replica, 100% surge and 100% unavailable: one step is 2 pods, but only 1 old pod exists
        var rollout = new Rollout.RollingUpdate(IntOrPercent.percent(100), IntOrPercent.percent(100));
        var peak = PeakPods.of(TargetInput.builder("d").replicas(1).rollout(rollout).build());
        assertThat(peak.terminating()).isEqualTo(1);
        assertThat(peak.total()).isEqualTo(3);
    }

    @Test
    void terminatingPodsOverridesTheDefault() {
        var peak = PeakPods.of(TargetInput.builder("d").replicas(10).terminatingPods(0).build());
        assertThat(peak.total()).isEqualTo(13);
        var slowShutdown = PeakPods.of(TargetInput.builder("d").replicas(10).terminatingPods(10).build());
        assertThat(slowShutdown.total()).isEqualTo(23);
    }

    @Test
    void podsSeenTerminatingAtOnceRaiseTheAllowanceUpToTheOldPods() {
        // 3 replicas, surge 1, maxUnavailable 0: one step is 1 old pod
        var rollout = new Rollout.RollingUpdate(IntOrPercent.of(1), IntOrPercent.of(0));
        var oneStep = PeakPods.of(TargetInput.builder("d").replicas(3).rollout(rollout).seenTerminating(1).build());
        assertThat(oneStep.total()).isEqualTo(5);
        assertThat(oneStep.explanation()).contains("1 terminating (one rollout step");

        var slow = PeakPods.of(TargetInput.builder("d").replicas(3).rollout(rollout).seenTerminating(2).build());
        assertThat(slow.total()).isEqualTo(6);
        assertThat(slow.explanation()).contains("2 terminating (2 of its pods were seen terminating at once, more than "
                + "one rollout step (1)");

        var capped = PeakPods.of(TargetInput.builder("d").replicas(3).rollout(rollout).seenTerminating(9).build());
        assertThat(capped.terminating()).isEqualTo(3);
        assertThat(capped.explanation()).contains("(at most the 3 old pods)");

        var declared = PeakPods.of(TargetInput.builder("d").replicas(3).rollout(rollout).seenTerminating(3)
                .terminatingPods(1).build());
        assertThat(declared.terminating()).as("terminatingPods, when set, is what the user knows").isEqualTo(1);
    }

    @Test
    void aShutdownSpanningStepsPlansForTheirOldPodsBeforeTheyAreSeen() {
        // 10 replicas, surge 2, maxUnavailable 0: a step is 2 old pods
        var rollout = new Rollout.RollingUpdate(IntOrPercent.of(2), IntOrPercent.of(0));
        var one = PeakPods.of(TargetInput.builder("d").replicas(10).rollout(rollout).shutdownSteps(1).build());
        assertThat(one.terminating()).isEqualTo(2);
        var three = PeakPods.of(TargetInput.builder("d").replicas(10).rollout(rollout).shutdownSteps(3).build());
        assertThat(three.terminating()).isEqualTo(6);
        assertThat(three.explanation())
                .contains("6 terminating (old pods of 3 rollout steps of 2 may terminate at once: "
                        + "its preStop outlasts a step");
        var many = PeakPods.of(TargetInput.builder("d").replicas(10).rollout(rollout).shutdownSteps(50).build());
        assertThat(many.terminating()).as("at most the old pods there are").isEqualTo(10);
        var seenMore = PeakPods.of(TargetInput.builder("d").replicas(10).rollout(rollout).shutdownSteps(2)
                .seenTerminating(7).build());
        assertThat(seenMore.terminating()).as("what was seen, when more").isEqualTo(7);
        assertThat(seenMore.explanation()).contains("7 of its pods were seen terminating at once");
        var declared = PeakPods.of(TargetInput.builder("d").replicas(10).rollout(rollout).shutdownSteps(3)
                .terminatingPods(1).build());
        assertThat(declared.terminating()).as("terminatingPods wins").isEqualTo(1);
        var ordered = PeakPods
                .of(TargetInput.builder("s").replicas(3).rollout(new Rollout.Ordered()).shutdownSteps(4).build());
        assertThat(ordered.terminating()).as("a StatefulSet never overlaps old and new pods").isZero();
    }

    @Test
    void recreateAndStatefulSetsAddNoPods() {
        assertThat(PeakPods.of(TargetInput.builder("d").replicas(4).rollout(new Rollout.Recreate()).build()).total())
                .isEqualTo(4);
        assertThat(PeakPods.of(TargetInput.builder("s").replicas(4).rollout(new Rollout.Ordered()).build()).total())
                .isEqualTo(4);
    }

    @Test
    void hpaMaxIsTheDefaultBasisWhenAnHpaExists() {
        // basis 6; 25% of 6 = 1.5 -> surge 2, unavailable 1; terminating 3
        var peak = PeakPods.of(TargetInput.builder("d").replicas(3).hpaMaxReplicas(6).build());
        assertThat(peak.basis()).isEqualTo(Basis.HPA_MAX);
        assertThat(peak.basisReplicas()).isEqualTo(6);
        assertThat(peak.total()).isEqualTo(11);
    }

    @Test
    void hpaMaxBelowCurrentReplicasPlansForTheRunningPods() {
        var peak = PeakPods
                .of(TargetInput.builder("d").replicas(8).hpaMaxReplicas(5).rollout(new Rollout.Recreate()).build());
        assertThat(peak.basisReplicas()).isEqualTo(8);
        assertThat(peak.explanation()).contains("HPA maxReplicas 5, but 8 replicas run now");
    }

    @Test
    void currentAndFixedBases() {
        var current = PeakPods.of(TargetInput.builder("d").replicas(3).hpaMaxReplicas(6).basis(Basis.CURRENT)
                .rollout(new Rollout.Recreate()).build());
        assertThat(current.total()).isEqualTo(3);
        var fixed = PeakPods.of(TargetInput.builder("d").replicas(2).basis(Basis.FIXED).fixedReplicas(7)
                .rollout(new Rollout.Recreate()).build());
        assertThat(fixed.total()).isEqualTo(7);
        var noHpa = PeakPods
                .of(TargetInput.builder("d").replicas(2).basis(Basis.HPA_MAX).rollout(new Rollout.Recreate()).build());
        assertThat(noHpa.total()).isEqualTo(2);
        assertThat(noHpa.explanation()).contains("no HPA scales it");
    }

    @Test
    void zeroReplicasPlanNoPods() {
        assertThat(PeakPods.of(TargetInput.builder("d").replicas(0).build()).total()).isZero();
    }

    @Test
    void badTargetsNameTheField() {
        assertThatThrownBy(() -> TargetInput.builder("d").field("targets[2]").minPoolSize(5).maxPoolSize(3).build())
                .isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("targets[2].minPoolSize must not exceed maxPoolSize");
        assertThatThrownBy(() -> TargetInput.builder("d").field("targets[0]").basis(Basis.FIXED).build())
                .hasMessageStartingWith("targets[0].fixedReplicas is required with basis Fixed");
        assertThatThrownBy(() -> IntOrPercent.parse("a lot"))
                .hasMessageContaining("neither a whole number nor a percentage");
    }
}
