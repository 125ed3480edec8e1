package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Peak pods of an Argo Rollout's strategies and a CronJob's Jobs, and the cron schedules their overlap is read from. */
class MoreKindsPeakTest {
    private static final IntOrPercent P25 = IntOrPercent.percent(25);

    private static Canary canary(boolean routed, boolean dynamic, List<Integer> weights) {
        return new Canary(P25, P25, routed, dynamic, weights, 0, 0, 30);
    }

    @Test
    void aCanaryWithoutTrafficRoutingSurgesLikeADeployment() {
        var c = canary(false, false, List.of(20, 50));
        var d = Rollout.RollingUpdate.DEFAULT;
        for (long r : new long[]{1, 3, 4, 10, 97}) {
            assertThat(c.surge(r)).isEqualTo(d.surge(r));
            assertThat(c.defaultTerminating(r)).isEqualTo(d.defaultTerminating(r));
        }
    }

    @Test
    void aTrafficRoutedCanaryRunsEveryReplicaTwiceAtPromotion() {
        var c = canary(true, false, List.of(20, 50));
        assertThat(c.surge(4)).isEqualTo(4);
        // a canary superseded mid-rollout shuts down beside the new one
        assertThat(c.defaultTerminating(4)).isEqualTo(4);
        // weights out of maxTrafficWeight 1000; minPodsPerReplicaSet 2 under a single replica
        assertThat(new Canary(P25, P25, true, true, List.of(100, 500, 900), 0, 0, 30, 1000, 0).surge(10))
                .isEqualTo(4);
        assertThat(new Canary(P25, P25, true, false, List.of(), 0, 0, 30, 100, 2).surge(1)).isEqualTo(2);
        // a setCanaryScale step may name more canary pods than replicas
        assertThat(new Canary(P25, P25, true, false, List.of(), 7, 0, 30).surge(4)).isEqualTo(7);
        assertThat(new Canary(P25, P25, true, false, List.of(), 0, 150, 30).surge(4)).isEqualTo(6);
    }

    @Test
    void dynamicStableScaleCountsItsLargestStep() {
        // 10 replicas, weights 20 then 50 then 100: steps of 2, 3 (canary 5 + stable still 8 - 10) and 5
        var c = canary(true, true, List.of(20, 50));
        assertThat(c.surge(10)).isEqualTo(5);
        assertThat(c.defaultTerminating(10)).isEqualTo(10); // a superseded canary, every replica at most
        // rounding up both sides: 3 replicas at weight 50 -> canary 2 + stable 3 (still at the weight before, 0)
        assertThat(canary(true, true, List.of(50)).surge(3)).isEqualTo(2);
        // no steps: straight to 100 beside a full stable
        assertThat(canary(true, true, List.of()).surge(6)).isEqualTo(6);
    }

    @Property
    void dynamicStableScaleNeverCountsMoreThanTheStaticOne(@ForAll @IntRange(min = 1, max = 500) int replicas,
            @ForAll @IntRange(min = 0, max = 100) int w1, @ForAll @IntRange(min = 0, max = 100) int w2) {
        var weights = List.of(w1, w2);
        assertThat(canary(true, true, weights).surge(replicas)).isBetween(0L, (long) replicas);
        assertThat(canary(true, false, weights).surge(replicas)).isEqualTo(replicas);
    }

    @Test
    void blueGreenRunsPreviewAndActiveAtOnce() {
        var b = new BlueGreen(1, 30);
        assertThat(b.surge(5)).isEqualTo(5);
        assertThat(b.defaultTerminating(5)).isEqualTo(5);
        assertThat(b.describe(5)).contains("previewReplicaCount 1", "scaleDownDelaySeconds 30");
    }

    @Test
    void batchCountsReplacementsByPolicy() {
        assertThat(new Batch(2, 1, "Forbid", false, "").defaultTerminating(2)).isZero();
        assertThat(new Batch(2, 1, "Replace", false, "").defaultTerminating(2)).isEqualTo(2);
        assertThat(new Batch(2, 3, "Allow", true, "").defaultTerminating(6)).isEqualTo(6);
        assertThat(new Batch(2, 3, "Allow", true, "").surge(6)).isZero();
    }

    @Test
    void cronStartsWithinADeadline() {
        assertThat(CronSchedule.mostStartsWithin("*/5 * * * *", 600)).isEqualTo(3);
        assertThat(CronSchedule.mostStartsWithin("*/5 * * * *", 599)).isEqualTo(2);
        assertThat(CronSchedule.mostStartsWithin("0 * * * *", 600)).isEqualTo(1);
        assertThat(CronSchedule.mostStartsWithin("@hourly", 7200)).isEqualTo(3);
        assertThat(CronSchedule.mostStartsWithin("@every 90m", 3 * 3600)).isEqualTo(3);
        assertThat(CronSchedule.mostStartsWithin("@every 90s", 180)).isEqualTo(3);
        // a stepped star is no star (robfig): odd days OR Mondays, so three starts can fall within two days
        assertThat(CronSchedule.mostStartsWithin("0 0 */2 * MON", 2 * 86_400)).isEqualTo(3);
        assertThat(CronSchedule.mostStartsWithin("0 0 * * MON", 2 * 86_400)).isEqualTo(1);
        // 23:50 and 00:10 the next day are 20 minutes apart, across the day boundary
        assertThat(CronSchedule.mostStartsWithin("10,50 0,23 * * *", 20 * 60)).isEqualTo(2);
        // names, ranges, steps; weekdays only: Friday 23:59 and Monday 00:00 are far apart
        assertThat(CronSchedule.mostStartsWithin("0 9-17/4 * JAN-DEC MON-FRI", 4 * 3600)).isEqualTo(2);
        // day of month OR day of week when both are restricted: the 1st and every Sunday
        assertThat(CronSchedule.mostStartsWithin("0 0 1 * SUN", 86_400)).isEqualTo(2);
        assertThat(CronSchedule.mostStartsWithin("CRON_TZ=Europe/Paris 0 0 * * *", 3600)).isEqualTo(1);
    }

    @Test
    void badSchedulesSayWhat() {
        assertThatThrownBy(() -> CronSchedule.parse("* * *")).hasMessageContaining("five fields");
        assertThatThrownBy(() -> CronSchedule.parse("61 * * * *"))
                .hasMessageContaining("'61' is not a value from 0 to 59");
        assertThatThrownBy(() -> CronSchedule.parse("0 5-2 * * *")).hasMessageContaining("runs backwards");
        assertThatThrownBy(() -> CronSchedule.parse("@every soon")).hasMessageContaining("not a duration");
    }
}
