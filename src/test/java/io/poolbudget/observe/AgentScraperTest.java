package io.poolbudget.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.poolbudget.decide.AgentReport;
import io.poolbudget.planning.BudgetHoldings;
import java.net.ConnectException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What an agent's answer (or silence) becomes: confirmed only at the size published to the pod, a deadline counted from
 * the first time the pod was found not holding it and kept while the same size is waited for, and a reason a person
 * can act on. A shared budget counts a live-mode pod at what its agent confirmed.
 */
class AgentScraperTest {
    private static final String AT_3 = """
            {"published":3,"confirmed":true,"error":null,"pools":[{"name":"hikari:app","maximum":3,"minimumIdle":3,\
            "total":3,"active":1,"error":null}]}""";
    private static final String STILL_10 = """
            {"published":10,"confirmed":true,"error":null,"pools":[{"name":"hikari:app","maximum":10,"minimumIdle":10,\
            "total":10,"active":0,"error":null}]}""";

    @Test
    void aPodIsDoneWhenItsAgentConfirmsTheSizePublishedToIt() {
        var done = AgentScraper.report(AT_3, null, 3, null, 1000);
        assertThat(done).isEqualTo(new AgentReport(3, true, 3, 3, null, 0, 1));
        var stale = AgentScraper.report(STILL_10, null, 3, null, 1000);
        assertThat(stale.confirmed()).as("confirms its old size").isTrue();
        assertThat(stale.since()).as("but not the one published: its deadline runs").isEqualTo(1000);
        var later = AgentScraper.report(STILL_10, null, 3, new AgentScraper.Entry(stale, 1000, "ns", 3), 5000);
        assertThat(later.since()).as("from the first time, not from each read").isEqualTo(1000);
        var newSize = AgentScraper.report(STILL_10, null, 2, new AgentScraper.Entry(stale, 1000, "ns", 3), 6000);
        assertThat(newSize.since()).as("a new size starts a new deadline").isEqualTo(6000);
        assertThat(AgentScraper.report(null, new ConnectException("refused"), 3, null, 0).since())
                .as("a pod not Ready yet: its JVM is starting, no deadline runs").isZero();
    }

    @Test
    void thePodsDemandIsReadWhereTheAgentSaysItAndNullWhereNot() {
        assertThat(
                AgentScraper.report(AT_3.replace("\"error\":null,\"pools\"", "\"error\":null,\"demand\":7,\"pools\""),
                        null, 3, null, 1000))
                .isEqualTo(new AgentReport(3, true, 3, 3, null, 0, 1, 7));
        assertThat(AgentScraper.report(AT_3, null, 3, null, 1000).demand()).as("an agent that does not say it")
                .isNull();
        for (String bad : new String[]{"\"x\"", "-1", "2.5", "null", "{}"}) {
            var report = AgentScraper.report(AT_3.replace("\"pools\"", "\"demand\":" + bad + ",\"pools\""), null, 3,
                    null, 1000);
            assertThat(report).as(bad).isEqualTo(new AgentReport(3, true, 3, 3, null, 0, 1, null));
        }
        assertThat(AgentScraper.report(null, new ConnectException("refused"), 3, null, 1).demand()).isNull();
        assertThat(new AgentReport(3, true, 3, 3, null, 0, 1, 7).withoutDemand())
                .as("a new demand alone does not wake the policy")
                .isEqualTo(new AgentReport(3, true, 3, 3, null, 0, 1, 2)
                        .withoutDemand());
    }

    @Test
    void silenceAndPoolsItCannotFindAreSaidPlainly() {
        assertThat(AgentScraper.report(null, new ConnectException("refused"), 3, null, 1).problem())
                .isEqualTo("no agent answers on port 9477");
        assertThat(AgentScraper.report("{\"published\":3,\"confirmed\":false,\"error\":null,\"pools\":[]}", null, 3,
                null, 1).problem()).contains("found no pool it resizes (HikariCP or Agroal");
        assertThat(AgentScraper.report("not json", null, 3, null, 1).problem()).contains("not JSON");
    }

    @Test
    void aSharedBudgetCountsALivePodAtWhatItsAgentConfirmed() {
        Pod pod = new PodBuilder().withNewMetadata().withName("a").withNamespace("ns").withUid("u1")
                .withAnnotations(Map.of("pool-size.poolbudget.io/db", "10", "budget.poolbudget.io/db", "shared",
                        "live-size.poolbudget.io/db", "3"))
                .endMetadata().build();
        assertThat(BudgetHoldings.of(List.of(pod), List.of()).get(0).connections())
                .as("no evidence yet: max(old, new)").isEqualTo(10);
        assertThat(BudgetHoldings.of(List.of(pod), List.of(), uid -> new AgentReport(3, true, 3, 3, null, 0)).get(0)
                .connections()).isEqualTo(3);
    }
}
