package io.poolbudget.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.poolbudget.decide.AgentReport;
import io.poolbudget.decide.LiveResize;
import io.poolbudget.planning.BudgetHoldings;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
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
        var done = AgentAnswers.report(AT_3, null, 3, null, 1000);
        assertThat(done).isEqualTo(new AgentReport(3, true, 3, 3, null, 0, 1));
        var stale = AgentAnswers.report(STILL_10, null, 3, null, 1000);
        assertThat(stale.confirmed()).as("confirms its old size").isTrue();
        assertThat(stale.since()).as("but not the one published: its deadline runs").isEqualTo(1000);
        var later = AgentAnswers.report(STILL_10, null, 3, new AgentScraper.Entry(stale, 1000, "ns", 3, 3), 5000);
        assertThat(later.since()).as("from the first time, not from each read").isEqualTo(1000);
        var newSize = AgentAnswers.report(STILL_10, null, 2, new AgentScraper.Entry(stale, 1000, "ns", 3, 3), 6000);
        assertThat(newSize.since()).as("a new size starts a new deadline").isEqualTo(6000);
        assertThat(AgentAnswers.report(null, new ConnectException("refused"), 3, null, 0).since())
                .as("a pod not Ready yet: its JVM is starting, no deadline runs").isZero();
    }

    @Test
    void thePodsDemandIsReadWhereTheAgentSaysItAndNullWhereNot() {
        assertThat(
                AgentAnswers.report(AT_3.replace("\"error\":null,\"pools\"", "\"error\":null,\"demand\":7,\"pools\""),
                        null, 3, null, 1000))
                .isEqualTo(new AgentReport(3, true, 3, 3, null, 0, 1, 7));
        assertThat(AgentAnswers.report(AT_3, null, 3, null, 1000).demand()).as("an agent that does not say it")
                .isNull();
        for (String bad : new String[]{"\"x\"", "-1", "2.5", "null", "{}"}) {
            var report = AgentAnswers.report(AT_3.replace("\"pools\"", "\"demand\":" + bad + ",\"pools\""), null, 3,
                    null, 1000);
            assertThat(report).as(bad).isEqualTo(new AgentReport(3, true, 3, 3, null, 0, 1, null));
        }
        assertThat(AgentAnswers.report(null, new ConnectException("refused"), 3, null, 1).demand()).isNull();
        assertThat(new AgentReport(3, true, 3, 3, null, 0, 1, 7).withoutDemand())
                .as("a new demand alone does not wake the policy")
                .isEqualTo(new AgentReport(3, true, 3, 3, null, 0, 1, 2)
                        .withoutDemand());
    }

    /** An agent's answer at the confirmed size 3 with the given demand. */
    private static String at3(int demand) {
        return AT_3.replace("\"error\":null,\"pools\"", "\"error\":null,\"demand\":" + demand + ",\"pools\"");
    }

    /** A Ready pod of the policy "db" at the live size 3, as the scraper lists it. */
    private static final Pod LIVE_AT_3 = new PodBuilder().withNewMetadata().withName("a").withNamespace("ns")
            .withUid("u1").withAnnotations(Map.of("live-size.poolbudget.io/db", "3")).endMetadata().withNewStatus()
            .withPodIP("10.0.0.7").addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus()
            .build();

    /**
     * The pods of a target that lends are read every second however quiet they are, so that a lender whose load returns
     * at once past its size is seen within a second; once its policy no longer asks, every 10 s again.
     */
    @Test
    void aLendersPodsAreReadEverySecondWhileItsPolicyAsks() {
        List<java.net.URI> asked = new ArrayList<>();
        var scraper = new AgentScraper(uri -> {
            asked.add(uri);
            return CompletableFuture.completedFuture(at3(0));
        });
        BiConsumer<String, String> wake = (ns, key) -> {};
        scraper.tick(List.of(LIVE_AT_3), wake, 0);
        scraper.readClosely("db", "ns", java.util.Set.of("u1"));
        for (long s = 1; s <= 5; s++) {
            scraper.tick(List.of(LIVE_AT_3), wake, s * 1000);
        }
        assertThat(asked).as("lending, idle: read every second").hasSize(6);
        scraper.readClosely("db", "ns", java.util.Set.of());
        for (long s = 6; s <= 9; s++) {
            scraper.tick(List.of(LIVE_AT_3), wake, s * 1000);
        }
        assertThat(asked).as("no longer lending: not before 10 s after its last read").hasSize(6);
        scraper.readClosely("other", "ns", java.util.Set.of("u2"));
        for (long s = 10; s <= 16; s++) {
            scraper.tick(List.of(LIVE_AT_3), wake, s * 1000);
        }
        assertThat(asked).as("another policy's lenders are not this pod: read at 15 s only").hasSize(7);
    }

    /**
     * A lender's pod that lent connections away and turns busy: while its demand reaches its size it is read every
     * second, and the read that first finds callers waiting beyond its size wakes its policy, once. A steady saturated or
     * starving pod wakes nothing more, and a pod with connections to spare is read every 10 s.
     */
    @Test
    void aPodThatStartsToStarveWakesItsPolicyOnceAndASaturatedOneIsReadEverySecond() {
        String[] answer = {at3(1)};
        List<java.net.URI> asked = new ArrayList<>();
        var scraper = new AgentScraper(uri -> {
            asked.add(uri);
            return CompletableFuture.completedFuture(answer[0]);
        });
        List<String> woken = new ArrayList<>();
        BiConsumer<String, String> wake = (ns, key) -> woken.add(ns + "/" + key);
        scraper.tick(List.of(LIVE_AT_3), wake, 0);
        assertThat(asked).containsExactly(java.net.URI.create("http://10.0.0.7:9477/"));
        assertThat(woken).as("its first report").containsExactly("ns/db");

        answer[0] = at3(2);
        for (long s = 1; s <= 9; s++) {
            scraper.tick(List.of(LIVE_AT_3), wake, s * 1000);
        }
        assertThat(asked).as("confirmed, connections to spare: not read again within 10 s").hasSize(1);
        scraper.tick(List.of(LIVE_AT_3), wake, 10_000);
        assertThat(asked).as("read again at 10 s").hasSize(2);
        assertThat(woken).as("a new demand alone wakes nothing").hasSize(1);

        answer[0] = at3(3);
        scraper.tick(List.of(LIVE_AT_3), wake, 20_000);
        scraper.tick(List.of(LIVE_AT_3), wake, 21_000);
        assertThat(asked).as("saturated: read the next second").hasSize(4);
        assertThat(woken).as("saturated, nobody waiting: nothing to wake for").hasSize(1);

        answer[0] = at3(7);
        scraper.tick(List.of(LIVE_AT_3), wake, 22_000);
        assertThat(woken).as("callers wait beyond its size: starvation begins").hasSize(2);
        for (long s = 23; s <= 60; s++) {
            answer[0] = at3(s % 2 == 0 ? 7 : 5);
            scraper.tick(List.of(LIVE_AT_3), wake, s * 1000);
        }
        assertThat(asked).as("read every second while it starves").hasSize(5 + 38);
        assertThat(woken).as("a pod that stays starved wakes nothing more").hasSize(2);

        answer[0] = at3(3);
        scraper.tick(List.of(LIVE_AT_3), wake, 61_000);
        answer[0] = at3(6);
        scraper.tick(List.of(LIVE_AT_3), wake, 62_000);
        assertThat(woken).as("a new starvation after its callers were served").hasSize(3);
    }

    /**
     * A saturated pod that does not starve is asked to answer when it starts to: the policy wakes as the answer comes,
     * not at the next tick, and the pod is not asked again while its agent waits. A starving pod, or one with
     * connections to spare, gets plain reads.
     */
    @Test
    void aSaturatedPodIsAskedToAnswerWhenItStartsToStarveAndWakesItsPolicyAsItAnswers() {
        List<java.net.URI> asked = new ArrayList<>();
        List<CompletableFuture<String>> waiting = new ArrayList<>();
        String[] answer = {at3(3)};
        var scraper = new AgentScraper(uri -> {
            asked.add(uri);
            if (uri.getQuery() == null) {
                return CompletableFuture.completedFuture(answer[0]);
            }
            var later = new CompletableFuture<String>();
            waiting.add(later);
            return later;
        });
        List<String> woken = new ArrayList<>();
        BiConsumer<String, String> wake = (ns, key) -> woken.add(ns + "/" + key);
        scraper.tick(List.of(LIVE_AT_3), wake, 0);
        scraper.tick(List.of(LIVE_AT_3), wake, 1000);
        assertThat(asked).as("saturated at 3: asked to answer when more than 3 are wanted").containsExactly(
                java.net.URI.create("http://10.0.0.7:9477/"),
                java.net.URI.create("http://10.0.0.7:9477/?over=3&waitMs=" + AgentScraper.WATCH_MS));
        for (long s = 2; s <= 5; s++) {
            scraper.tick(List.of(LIVE_AT_3), wake, s * 1000);
        }
        assertThat(asked).as("not asked again while its agent waits").hasSize(2);
        assertThat(woken).containsExactly("ns/db");

        waiting.get(0).complete(at3(5));
        assertThat(woken).as("woken as the agent answers").containsExactly("ns/db", "ns/db");
        answer[0] = at3(5);
        scraper.tick(List.of(LIVE_AT_3), wake, 6000);
        assertThat(asked.get(2).getQuery()).as("starving: a plain read").isNull();

        answer[0] = at3(1);
        scraper.tick(List.of(LIVE_AT_3), wake, 7000);
        scraper.tick(List.of(LIVE_AT_3), wake, 8000);
        assertThat(asked).as("connections to spare: nothing asked within 10 s of its last read").hasSize(4);
        scraper.readClosely("db", "ns", java.util.Set.of("u1"));
        scraper.tick(List.of(LIVE_AT_3), wake, 9000);
        assertThat(asked.get(4).getQuery()).as("lending: asked to answer when it starts to starve")
                .isEqualTo("over=3&waitMs=" + AgentScraper.WATCH_MS);
        sleep(60);
        waiting.get(1).complete(at3(2));
        assertThat(woken).as("answered after its wait, not starving: nothing to wake for").hasSize(2);
        assertThat(asked).as("still lending: asked again as it answers, not at the next tick").hasSize(6);
        assertThat(asked.get(5).getQuery()).isEqualTo("over=3&waitMs=" + AgentScraper.WATCH_MS);
        waiting.get(2).complete(at3(2));
        assertThat(asked).as("an answer at once (an agent that does not wait): not asked again before the next tick")
                .hasSize(6);
        scraper.readClosely("db", "ns", java.util.Set.of());
        scraper.tick(List.of(LIVE_AT_3), wake, 10_000);
        assertThat(asked).as("no longer lending, connections to spare: read every 10 s again").hasSize(6);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theRecentDemandIsReadBesideTheDemandAndNeverWithoutIt() {
        String both = AT_3.replace("\"error\":null,\"pools\"", "\"error\":null,\"demand\":7,\"recent\":2,\"pools\"");
        var r = AgentAnswers.report(both, null, 3, null, 1000);
        assertThat(r.demand()).isEqualTo(7);
        assertThat(r.recent()).isEqualTo(2);
        assertThat(r.withoutDemand().recent()).as("the recent demand alone wakes nothing either").isNull();
        assertThat(
                AgentAnswers.report(AT_3.replace("\"error\":null,\"pools\"", "\"error\":null,\"recent\":2,\"pools\""),
                        null, 3, null, 1000).recent())
                .as("no demand said: no recent one").isNull();
        assertThat(AgentAnswers.report(both.replace("\"recent\":2", "\"recent\":-1"), null, 3, null, 1000).recent())
                .isNull();
        assertThat(AgentAnswers.report(both.replace("\"recent\":2", "\"recent\":\"x\""), null, 3, null, 1000)
                .recent()).isNull();
    }

    @Test
    void saturationAndStarvationAreCountedAgainstTheSizePublishedToThePod() {
        var saturated = AgentAnswers.report(at3(3), null, 3, null, 1000);
        var spare = AgentAnswers.report(at3(2), null, 3, null, 1000);
        assertThat(AgentScraper.saturated(saturated, 3)).isTrue();
        assertThat(AgentScraper.starving(saturated, 3)).as("all in use, nobody waiting").isFalse();
        assertThat(AgentScraper.saturated(spare, 3)).isFalse();
        assertThat(AgentScraper.saturated(AgentAnswers.report(AT_3, null, 3, null, 1000), 3)).as("no demand said")
                .isFalse();
        assertThat(AgentScraper.due(new AgentScraper.Entry(saturated, 0, "ns", null, 3), 3, 1000, false)).isTrue();
        assertThat(AgentScraper.due(new AgentScraper.Entry(spare, 0, "ns", null, 3), 3, 9999, false)).isFalse();
        assertThat(AgentScraper.due(new AgentScraper.Entry(spare, 0, "ns", null, 3), 3, 10_000, false)).isTrue();
        assertThat(AgentScraper.due(new AgentScraper.Entry(spare, 0, "ns", null, 3), 3, 1000, true))
                .as("a pod of a target that lends is read every second").isTrue();

        var starving = AgentAnswers.report(at3(7), null, 3, null, 1000);
        assertThat(AgentScraper.wakes(new AgentScraper.Entry(saturated, 0, "ns", null, 3), starving, 3)).isTrue();
        assertThat(AgentScraper.wakes(new AgentScraper.Entry(starving, 0, "ns", null, 3), starving, 3)).isFalse();
        var saidNone = AgentAnswers.report(AT_3, null, 3, null, 1000);
        assertThat(AgentScraper.wakes(new AgentScraper.Entry(saidNone, 0, "ns", null, 3), starving, 3))
                .as("the last said no demand").isTrue();
        assertThat(AgentScraper.wakes(new AgentScraper.Entry(starving, 0, "ns", null, 8), starving, 3))
                .as("it did not starve at the size it had then").isTrue();
        assertThat(AgentScraper.wakes(new AgentScraper.Entry(spare, 0, "ns", null, 3), saturated, 3))
                .as("saturated alone").isFalse();
    }

    @Test
    void silenceAndPoolsItCannotFindAreSaidPlainly() {
        assertThat(AgentAnswers.report(null, new ConnectException("refused"), 3, null, 1).problem())
                .isEqualTo("no agent answers on port 9477");
        assertThat(AgentAnswers.report("{\"published\":3,\"confirmed\":false,\"error\":null,\"pools\":[]}", null, 3,
                null, 1).problem()).contains("found no pool it resizes (HikariCP or Agroal");
        assertThat(AgentAnswers.report("not json", null, 3, null, 1).problem()).contains("not JSON");
    }

    @Test
    void aSharedBudgetCountsALivePodAtWhatItsAgentConfirmed() {
        Pod pod = new PodBuilder().withNewMetadata().withName("a").withNamespace("ns").withUid("u1")
                .withAnnotations(Map.of("pool-size.poolbudget.io/db", "10", "budget.poolbudget.io/db", "shared",
                        "live-size.poolbudget.io/db", "3"))
                .endMetadata().build();
        assertThat(BudgetHoldings.of(List.of(pod), List.of(), LiveResize.holding(uid -> null)).get(0).connections())
                .as("no evidence yet: max(old, new)").isEqualTo(10);
        assertThat(BudgetHoldings.of(List.of(pod), List.of(),
                LiveResize.holding(uid -> new AgentReport(3, true, 3, 3, null, 0))).get(0).connections()).isEqualTo(3);
    }
}
