package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PoolSizerTest {
    private static final Rollout RECREATE = new Rollout.Recreate(); // peak pods = replicas, to keep sums readable

    private static DatabaseInput budget(int connections) {
        return new DatabaseInput(1, 0, 2, null, 0, connections);
    }

    private static TargetInput.Builder pods(String id, int replicas) {
        return TargetInput.builder(id).replicas(replicas).rollout(RECREATE);
    }

    @Test
    void whatTheSurgeCostsIsSaidAndTheFitIsTheLargestCountThatStillFits() {
        var surge = new Rollout.RollingUpdate(IntOrPercent.of(1), IntOrPercent.of(0));
        // 4 + 1 surge + 1 terminating = 6 peak pods: 15 / 6 -> 2; with maxSurge 0: 4 + 0 + 1 = 5 -> 3
        var a = PoolSizer.allocate(budget(15), List.of(pods("web", 4).rollout(surge).build()));
        var web = a.target("web");
        assertThat(web.poolSize()).isEqualTo(2);
        assertThat(web.strategyCost()).isEqualTo("with maxSurge 0 (maxUnavailable 1) web would get pool 3 instead of "
                + "2 (peak pods 5 instead of 6): its rollout would stop old pods before starting their replacements");
        // at minPoolSize 1, R + 1 + 1 <= 15: up to 13 replicas
        assertThat(web.fit()).isEqualTo(new Fit(13L, 15));
        assertThat(web.fit().describe(web.peak())).isEqualTo("fits up to 13 replicas at minPoolSize 1 (the budget "
                + "leaves 15 connections beside the other targets' minimums)");
        var recreate = PoolSizer.allocate(budget(15), List.of(pods("web", 4).build(), pods("api", 3).minPoolSize(2)
                .build()));
        assertThat(recreate.target("web").strategyCost()).as("no surge, nothing to say").isNull();
        assertThat(recreate.target("web").fit()).as("api's minimum takes 6").isEqualTo(new Fit(9L, 9));
        var fixed = PoolSizer.allocate(budget(15), List.of(pods("web", 4).basis(Basis.FIXED).fixedReplicas(4).build()));
        assertThat(fixed.target("web").fit().replicas()).as("pods past fixedReplicas count too").isEqualTo(15L);
    }

    @Test
    void whatAnArgoCanarysSurgeCostsIsSaidWhereMaxSurgeSetsIt() {
        // basic canary, Argo's 25 % / 25 %: 4 + 1 surge + 2 terminating = 7 peak pods: 15 / 7 -> 2;
        // with maxSurge 0 (maxUnavailable 25 % = 1): 4 + 0 + 1 = 5 -> 3
        var basic = new Canary(IntOrPercent.percent(25), IntOrPercent.percent(25), false, false, List.of(20, 50), 0, 0,
                30);
        var web = PoolSizer.allocate(budget(15), List.of(pods("web", 4).rollout(basic).build())).target("web");
        assertThat(web.poolSize()).isEqualTo(2);
        assertThat(web.strategyCost()).isEqualTo("with maxSurge 0 (maxUnavailable 25%) web would get pool 3 instead "
                + "of 2 (peak pods 5 instead of 7): its rollout would stop old pods before starting their replacements");
        // traffic-routed: the canary's pods come from its weights, not maxSurge; blue-green: no maxSurge at all
        var routed = new Canary(IntOrPercent.percent(25), IntOrPercent.percent(25), true, false, List.of(20, 50), 0, 0,
                30);
        assertThat(routed.withoutSurge(4)).isNull();
        assertThat(PoolSizer.allocate(budget(15), List.of(pods("web", 4).rollout(routed).build())).target("web")
                .strategyCost()).isNull();
        assertThat(new BlueGreen(null, 30).withoutSurge(4)).isNull();
    }

    @Test
    void aPoolOfOneKeptThereByTheRolloutReserveIsExplainedWithWhatToChange() {
        // 2 replicas + 1 surge + 1 terminating = 4 peak pods; budget 4 -> 1 per pod, the running pods use 2 of 4
        var rolling = Rollout.RollingUpdate.DEFAULT;
        var small = PoolSizer.allocate(budget(4),
                List.of(TargetInput.builder("api").replicas(2).rollout(rolling).build()));
        assertThat(small.target("api").poolSize()).isEqualTo(1);
        assertThat(small.target("api").reserveAdvice(4)).isEqualTo("api gets a pool of 1 per pod: its rollout reserve "
                + "(2 of its 4 peak pods) is counted at the same pool, so in steady state its running pods use 2 of the "
                + "budget's 4 connections, and a pool of 1 serialises each pod's requests. More budget, or maxSurge: 0 on "
                + "it, gives its pods more (check with plan). An app that takes a second connection while it holds one "
                + "(Keycloak does at start-up) cannot run on a pool of 1: give it target.minPoolSize: 2.");
        // no reserve (Recreate): only what an app that cannot start on 1 needs (issue 41)
        assertThat(PoolSizer.allocate(budget(2), List.of(pods("api", 2).field("spec.targets[3]").build())).target("api")
                .reserveAdvice(2))
                .isEqualTo("api gets a pool of 1 per pod. An app that takes a second connection while "
                        + "it holds one (Keycloak does at start-up) cannot run on a pool of 1: give it "
                        + "spec.targets[3].minPoolSize: 2, or more budget (check with plan).");
        // quiet: a larger pool, a minPoolSize above 1 (it cannot be 1 then), or no pods
        assertThat(
                PoolSizer.allocate(budget(8), List.of(TargetInput.builder("api").replicas(2).rollout(rolling).build()))
                        .target("api").reserveAdvice(8))
                .isNull();
        assertThat(
                PoolSizer.allocate(budget(4), List.of(TargetInput.builder("api").replicas(0).rollout(rolling).build()))
                        .target("api").reserveAdvice(4))
                .isNull();
    }

    @Test
    void equalTargetsSplitEvenly() {
        var a = PoolSizer.allocate(budget(8), List.of(pods("a", 2).build(), pods("b", 2).build()));
        assertThat(a.verdict()).isEqualTo(Allocation.Verdict.FITS);
        assertThat(a.target("a").poolSize()).isEqualTo(2);
        assertThat(a.target("b").poolSize()).isEqualTo(2);
        assertThat(a.allocated()).isEqualTo(8);
        assertThat(a.unallocated()).isZero();
    }

    @Test
    void sizesFollowWeightsPerPod() {
        // 4 pods each, weights 3:1, budget 32 -> 6 and 2 per pod (24 + 8)
        var a = PoolSizer.allocate(budget(32), List.of(pods("a", 4).weight(3).build(), pods("b", 4).build()));
        assertThat(a.target("a").poolSize()).isEqualTo(6);
        assertThat(a.target("b").poolSize()).isEqualTo(2);
    }

    @Test
    void weightsOneToAThousand() {
        var a = PoolSizer.allocate(budget(100),
                List.of(pods("light", 1).build(), pods("heavy", 1).weight(1000).build()));
        assertThat(a.target("light").poolSize()).isEqualTo(1); // its share (0.1) is below minPoolSize 1
        assertThat(a.target("heavy").poolSize()).isEqualTo(99);
        assertThat(a.target("light").explanation()).contains("raised to minPoolSize 1");
    }

    @Test
    void aMinimumAboveItsShareIsHeldAndTheOthersShareTheRest() {
        var a = PoolSizer.allocate(budget(12),
                List.of(pods("big", 1).minPoolSize(10).build(), pods("small", 1).build()));
        assertThat(a.target("big").poolSize()).isEqualTo(10);
        assertThat(a.target("small").poolSize()).isEqualTo(2);
        assertThat(a.allocated()).isEqualTo(12);
    }

    @Test
    void leftoverBudgetAtMaxPoolSizeIsReportedNotHandedOut() {
        var a = PoolSizer.allocate(budget(100),
                List.of(pods("a", 1).maxPoolSize(2).build(), pods("b", 1).maxPoolSize(3).build()));
        assertThat(a.target("a").poolSize()).isEqualTo(2);
        assertThat(a.target("b").poolSize()).isEqualTo(3);
        assertThat(a.unallocated()).isEqualTo(95);
        assertThat(a.unallocatedReason()).isEqualTo("every target is at its maxPoolSize");
    }

    @Test
    void aStepThatDoesNotFitStopsTheFairOrder() {
        // mins cost 50 + 2; the next fair step (a tie, broken by id) is a: 1 -> 2, costing 50 of the 48 left
        var a = PoolSizer.allocate(budget(100), List.of(pods("a", 50).build(), pods("b", 2).build()));
        assertThat(a.target("a").poolSize()).isEqualTo(1);
        assertThat(a.target("b").poolSize()).isEqualTo(1);
        assertThat(a.unallocated()).isEqualTo(48);
        assertThat(a.unallocatedReason()).isEqualTo("the next step in fair order, a 1 → 2, needs 50 connections");
    }

    @Test
    void budgetTooSmallForTheMinimumsIsOversubscribedNotSilentlyOvershot() {
        var a = PoolSizer.allocate(budget(20), List.of(pods("a", 10).minPoolSize(2).build(),
                pods("b", 10).minPoolSize(2).build(), pods("c", 10).minPoolSize(2).build()));
        assertThat(a.verdict()).isEqualTo(Allocation.Verdict.OVERSUBSCRIBED);
        assertThat(a.targets()).extracting(TargetAllocation::poolSize).containsOnly(2);
        assertThat(a.allocated()).isEqualTo(60);
        assertThat(a.ratio()).isEqualTo(3.0);
        assertThat(a.unallocatedReason()).contains("below the 60 connections every target's minPoolSize needs (3.00×)");
    }

    @Test
    void anOversubscriptionNamesTheTargetAndTheScalerThatDriveIt() {
        var a = PoolSizer.allocate(budget(8), List.of(pods("Deployment/small", 2).build(),
                pods("Deployment/api", 1).hpaMaxReplicas(Integer.MAX_VALUE).scaler("HorizontalPodAutoscaler/api-hpa")
                        .build()));
        assertThat(a.verdict()).isEqualTo(Allocation.Verdict.OVERSUBSCRIBED);
        assertThat(a.unallocatedReason()).contains("the most is Deployment/api: peak pods 2147483647 = 2147483647 "
                + "(HorizontalPodAutoscaler/api-hpa maxReplicas 2147483647)").endsWith("at minPoolSize 1");
    }

    @Test
    void targetsAtZeroReplicasUseNoBudgetAndKeepTheirFairShare() {
        // busy costs 2 per step, idle nothing. Fair order (ties by id): busy 1→2, 2→3, 3→4, idle 3→4,
        // busy 4→5, idle 4→5, then busy 5→6 needs 2 of the 0 left. So both end at 5 and busy's pods
        // hold 10 connections. Should idle scale up, it can only get less (its steps start to cost).
        var a = PoolSizer.allocate(budget(10),
                List.of(pods("idle", 0).minPoolSize(3).build(), pods("busy", 2).build()));
        assertThat(a.target("idle").poolSize()).isEqualTo(5);
        assertThat(a.target("idle").connections()).isZero();
        assertThat(a.target("idle").explanation()).contains("no pods planned, so it uses no budget");
        assertThat(a.target("busy").poolSize()).isEqualTo(5);
        assertThat(a.allocated()).isEqualTo(10);
    }

    @Test
    void onlyZeroReplicaTargetsLeaveTheWholeBudgetUnallocated() {
        var a = PoolSizer.allocate(budget(10), List.of(pods("idle", 0).build()));
        assertThat(a.verdict()).isEqualTo(Allocation.Verdict.FITS);
        assertThat(a.unallocated()).isEqualTo(10);
        assertThat(a.unallocatedReason()).isEqualTo("no target has pods planned");
    }

    @Test
    void podsWithTwoPoolsCountTwice() {
        var a = PoolSizer.allocate(budget(16), List.of(pods("two", 2).poolsPerPod(2).build(), pods("one", 4).build()));
        assertThat(a.target("two").poolSize()).isEqualTo(2);
        assertThat(a.target("two").connections()).isEqualTo(8);
        assertThat(a.target("one").poolSize()).isEqualTo(2);
    }

    @Test
    void hpaMaximumsAndSurgeAreBudgetedNotCurrentPods() {
        // the example policy: budget 8; checkout-api 3 of HPA max 6 -> peak 11; orders-worker 2 -> peak 2+1+1 = 4
        var db = new DatabaseInput(4, 0, 2, 100, 10, null);
        var a = PoolSizer.allocate(db, List.of(
                TargetInput.builder("checkout-api").replicas(3).hpaMaxReplicas(6).weight(2).maxPoolSize(10).build(),
                TargetInput.builder("orders-worker").replicas(2).build()));
        assertThat(a.budget().connections()).isEqualTo(8);
        assertThat(a.target("checkout-api").peak().total()).isEqualTo(11);
        assertThat(a.target("orders-worker").peak().total()).isEqualTo(4);
        // minimums alone need 11 + 4 = 15 > 8
        assertThat(a.verdict()).isEqualTo(Allocation.Verdict.OVERSUBSCRIBED);
    }

    @Test
    void everyNumberIsExplained() {
        var a = PoolSizer.allocate(new DatabaseInput(8, 0, 2, null, 0, null), List.of(pods("a", 2).build()));
        assertThat(a.budget().explanation()).contains("cores 8 × 2 per core");
        assertThat(a.target("a").peak().explanation()).contains("peak pods 2 = 2 (current replicas 2)");
        assertThat(a.target("a").explanation()).isEqualTo(
                "pool size 8: fair share weight 1 × 8.000 per unit of weight = 8.00, rounded in fair order to 8; "
                        + "8 × 2 peak pods × 1 pools per pod = 16 connections");
    }

    @Test
    void aWorkloadNamedTwiceIsRejected() {
        assertThatThrownBy(() -> PoolSizer.allocate(budget(10), List.of(pods("a", 1).field("targets[0]").build(),
                pods("a", 1).field("targets[1]").build())))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("targets[1] names a a second time");
    }
}
