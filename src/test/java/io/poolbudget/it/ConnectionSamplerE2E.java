package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The budget sampler is the E2E tier's only safety check, so it is shown once to fail when it
 * should: two real pods hold HikariCP's default pool of 10 each (no policy), and a budget one below
 * what PostgreSQL counts must fail, while a budget equal to it passes.
 */
@OutsideTheLane // no operator: the apps hold HikariCP's default, which is what the sampler is checked against
class ConnectionSamplerE2E extends OperatorTestBase {
    @Test
    void failsWhenTheAppsHoldMoreThanTheBudget() {
        create(RealApps.app(ns, "held", 2, Map.of(), 0));
        awaitRolledOut("held");
        try (var pods = new PodAddresses(client, ns);
                var sampler = ConnectionSampler.start(Set.of(RealApps.appName(ns, "held"))).naming(pods)) {
            Awaitility.await("PostgreSQL counting both pools").atMost(60, TimeUnit.SECONDS)
                    .until(() -> sampler.now() == 20 && sampler.samples() >= 10);
            assertThat(sampler.peak()).isEqualTo(20);
            assertThatThrownBy(() -> sampler.assertWithin("sampler self-check, budget 19", 19))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("over budget at the database")
                    .hasMessageContaining("peak  20 of budget  19")
                    // which pods held them: each of the two by its address and name
                    .hasMessageContaining("10 by " + RealApps.appName(ns, "held") + "@")
                    .hasMessageContaining(livePods("held").get(0).getMetadata().getName())
                    .hasMessageContaining(livePods("held").get(1).getMetadata().getName())
                    .hasMessageContaining("the changes up to it:");
            sampler.assertWithin("sampler self-check, budget 20", 20);
        }
    }
}
