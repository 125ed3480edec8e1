package io.poolbudget.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which addresses hold ghosts: only one a target's pod had, that no pod has now, past the grace. */
class GhostsTest {
    private static final String POLICY = "shop/db";
    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");
    private static final Duration GRACE = Duration.ofSeconds(30);
    private static final String A = "10.244.0.17";
    private static final Ghosts.Pod WEB_1 = new Ghosts.Pod("shop", "web-1", "uid-1", "Deployment/web");
    private static final Ghosts.Pod WEB_2 = new Ghosts.Pod("shop", "web-2", "uid-2", "Deployment/web");

    private final Ghosts ghosts = new Ghosts();

    /**
     * Judges one read at {@code at}: no pod in the cache, the pods (live, by uid) the API server has at the addresses
     * looked up.
     */
    private List<Ghosts.Suspect> read(Instant at, Map<String, Long> byClient, Map<String, String> holders) {
        Set<String> unplaced = ghosts.unplaced(POLICY, byClient, Map.of());
        Map<String, Ghosts.Present> looked = new HashMap<>();
        unplaced.stream().filter(holders::containsKey).forEach(a -> looked.put(a, live(holders.get(a))));
        return ghosts.judge(POLICY, byClient, Map.of(), looked, at, GRACE);
    }

    private static Ghosts.Present live(String uid) {
        return new Ghosts.Present(uid, true);
    }

    private static Ghosts.Present terminating(String uid) {
        return new Ghosts.Present(uid, false);
    }

    @Test
    void anAddressWithoutItsPodHoldsGhostsOncePastTheGraceFromWhenItWasFoundLost() {
        ghosts.attribute(POLICY, Map.of(A, WEB_1), T0);
        assertThat(read(T0, Map.of(A, 5L), Map.of())).as("just lost: within the grace").isEmpty();
        assertThat(read(T0.plusSeconds(29), Map.of(A, 5L), Map.of())).isEmpty();
        assertThat(read(T0.plusSeconds(30), Map.of(A, 5L), Map.of())).singleElement().satisfies(s -> {
            assertThat(s.address()).isEqualTo(A);
            assertThat(s.pod()).isEqualTo(WEB_1);
            assertThat(s.since()).as("from when the address lost its pod, stable").isEqualTo(T0);
            assertThat(s.warned()).isFalse();
        });
        ghosts.said(POLICY, A, true, false);
        assertThat(read(T0.plusSeconds(60), Map.of(A, 5L), Map.of())).singleElement()
                .satisfies(s -> assertThat(s.warned()).as("said once").isTrue());
    }

    @Test
    void anAddressANewPodHasIsNoGhostAndIsForgotten() {
        ghosts.attribute(POLICY, Map.of(A, WEB_1), T0);
        read(T0, Map.of(A, 5L), Map.of());
        // a pod of another app, in another namespace, has the address now: the connections are its own
        assertThat(read(T0.plusSeconds(60), Map.of(A, 5L), Map.of(A, "uid-other"))).isEmpty();
        assertThat(ghosts.remembered(POLICY)).doesNotContainKey(A);
        assertThat(read(T0.plusSeconds(600), Map.of(A, 5L), Map.of())).as("never again, once it is another's")
                .isEmpty();
    }

    @Test
    void anAddressATargetsNewPodHasIsThatPods() {
        ghosts.attribute(POLICY, Map.of(A, WEB_1), T0);
        read(T0, Map.of(A, 5L), Map.of());
        ghosts.attribute(POLICY, Map.of(A, WEB_2), T0); // the replacement took the address
        assertThat(ghosts.judge(POLICY, Map.of(A, 5L), Map.of(A, live("uid-2")), Map.of(), T0.plusSeconds(600),
                GRACE)).isEmpty();
        assertThat(ghosts.remembered(POLICY)).containsEntry(A, WEB_2);
    }

    @Test
    void aTerminatingPodStillHasItsAddress() {
        ghosts.attribute(POLICY, Map.of(A, WEB_1), T0);
        // in the cache (deletionTimestamp set, still shutting down): its connections are its own
        assertThat(ghosts.judge(POLICY, Map.of(A, 5L), Map.of(A, terminating("uid-1")), Map.of(), T0, GRACE))
                .isEmpty();
        assertThat(ghosts.judge(POLICY, Map.of(A, 5L), Map.of(A, terminating("uid-1")), Map.of(),
                T0.plusSeconds(600), GRACE)).isEmpty();
        // or not cached, but the API server still has it (same uid)
        assertThat(read(T0.plusSeconds(900), Map.of(A, 5L), Map.of(A, "uid-1"))).isEmpty();
        assertThat(ghosts.remembered(POLICY)).containsKey(A);
    }

    @Test
    void aPodFoundAgainEndsTheLossItsGraceStartsAfresh() {
        ghosts.attribute(POLICY, Map.of(A, WEB_1), T0);
        read(T0, Map.of(A, 5L), Map.of());
        read(T0.plusSeconds(20), Map.of(A, 5L), Map.of(A, "uid-1"));
        assertThat(read(T0.plusSeconds(40), Map.of(A, 5L), Map.of())).isEmpty();
        assertThat(read(T0.plusSeconds(70), Map.of(A, 5L), Map.of())).singleElement()
                .satisfies(s -> assertThat(s.since()).isEqualTo(T0.plusSeconds(40)));
    }

    @Test
    void anAddressNeverAttributedIsNeverAGhostNorLookedUp() {
        ghosts.attribute(POLICY, Map.of(A, WEB_1), T0);
        var clients = Map.of(A, 2L, "10.0.0.9", 7L, "local", 1L); // another app, a host's psql, a socket
        assertThat(ghosts.unplaced(POLICY, clients, Map.of(A, live("uid-1")))).as("nothing to look up").isEmpty();
        for (int s = 0; s <= 600; s += 30) {
            assertThat(ghosts.judge(POLICY, clients, Map.of(A, live("uid-1")), Map.of(), T0.plusSeconds(s),
                    GRACE)).isEmpty();
        }
        assertThat(new Ghosts().judge(POLICY, clients, Map.of(), Map.of(), T0, GRACE)).as("no memory at all")
                .isEmpty();
    }

    @Test
    void ghostsClearWhenTheirBackendsGo() {
        ghosts.attribute(POLICY, Map.of(A, WEB_1), T0);
        read(T0, Map.of(A, 5L), Map.of());
        assertThat(read(T0.plusSeconds(30), Map.of(A, 5L), Map.of())).hasSize(1);
        assertThat(read(T0.plusSeconds(60), Map.of(), Map.of())).as("ended (keepalive, a reap)").isEmpty();
        assertThat(ghosts.remembered(POLICY)).isEmpty();
        assertThat(read(T0.plusSeconds(600), Map.of(A, 3L), Map.of())).as("a later client at the address is no "
                + "pod's").isEmpty();
    }

    @Test
    void onlyBackendsOpenedBeforeThePodWasLastSeenLiveAreGhostsNotBeforeItWasFoundLost() {
        ghosts.attribute(POLICY, Map.of(A, WEB_1), T0);
        assertThat(ghosts.judge(POLICY, Map.of(A, 5L), Map.of(A, live("uid-1")), Map.of(), T0.plusSeconds(10),
                GRACE)).isEmpty();
        // its node is lost: the pod stays terminating in the cache until it is force-deleted
        for (int s = 20; s <= 900; s += 30) {
            assertThat(ghosts.judge(POLICY, Map.of(A, 5L), Map.of(A, terminating("uid-1")), Map.of(),
                    T0.plusSeconds(s), GRACE)).isEmpty();
        }
        // force-deleted: the address has no pod from now on, long after the pod was last seen live
        read(T0.plusSeconds(1000), Map.of(A, 5L), Map.of());
        assertThat(read(T0.plusSeconds(1030), Map.of(A, 5L), Map.of())).singleElement().satisfies(s -> {
            assertThat(s.since()).as("found lost").isEqualTo(T0.plusSeconds(1000));
            assertThat(s.lastLive()).as("the cut-off: when it was last seen live, not when it was found lost")
                    .isEqualTo(T0.plusSeconds(10));
        });
    }

    @Test
    void anAddressAnotherPodOfTheNamespaceHasIsForgottenNotKeptAsTheOldPods() {
        ghosts.attribute(POLICY, Map.of(A, WEB_1), T0);
        // another policy's pod has the address now (the cache holds it, by another uid)
        assertThat(ghosts.unplaced(POLICY, Map.of(A, 5L), Map.of(A, live("uid-other")))).isEmpty();
        assertThat(ghosts.judge(POLICY, Map.of(A, 5L), Map.of(A, live("uid-other")), Map.of(), T0.plusSeconds(30),
                GRACE)).isEmpty();
        assertThat(ghosts.remembered(POLICY)).as("web-1's memory of the address is dropped").doesNotContainKey(A);
        // that pod's node is lost: its connections are not web-1's ghosts
        for (int s = 60; s <= 600; s += 30) {
            assertThat(read(T0.plusSeconds(s), Map.of(A, 5L), Map.of())).isEmpty();
        }
    }

    @Test
    void aPodNeverSeenLiveLeavesNoGhosts() {
        ghosts.attribute(POLICY, Map.of(A, new Ghosts.Pod("shop", "web-1", "uid-1", "Deployment/web", false)), T0);
        read(T0, Map.of(A, 5L), Map.of());
        assertThat(read(T0.plusSeconds(600), Map.of(A, 5L), Map.of())).as("no moment its backends were its own")
                .isEmpty();
    }

    @Test
    void theMemoryIsBounded() {
        Map<String, Ghosts.Pod> many = new HashMap<>();
        for (int i = 0; i < Ghosts.REMEMBERED + 100; i++) {
            many.put("10.1." + (i / 250) + "." + (i % 250), new Ghosts.Pod("shop", "p" + i, "u" + i, "Deployment/web"));
        }
        ghosts.attribute(POLICY, many, T0);
        assertThat(ghosts.remembered(POLICY)).hasSize(Ghosts.REMEMBERED);
        ghosts.attribute(POLICY, Map.of(A, WEB_1), T0);
        assertThat(ghosts.remembered(POLICY)).hasSize(Ghosts.REMEMBERED).containsEntry(A, WEB_1);
        ghosts.forget(POLICY);
        assertThat(ghosts.remembered(POLICY)).isEmpty();
    }
}
