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

    /** Judges one read at {@code at}: no pod in the cache, the pods the API server has at the addresses looked up. */
    private List<Ghosts.Suspect> read(Instant at, Map<String, Long> byClient, Map<String, String> holders) {
        Set<String> unplaced = ghosts.unplaced(POLICY, byClient, Set.of());
        Map<String, String> looked = new HashMap<>();
        unplaced.stream().filter(holders::containsKey).forEach(a -> looked.put(a, holders.get(a)));
        return ghosts.judge(POLICY, byClient, Set.of(), looked, at, GRACE);
    }

    @Test
    void anAddressWithoutItsPodHoldsGhostsOncePastTheGraceFromWhenItWasFoundLost() {
        ghosts.attribute(POLICY, Map.of(A, WEB_1));
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
        ghosts.attribute(POLICY, Map.of(A, WEB_1));
        read(T0, Map.of(A, 5L), Map.of());
        // a pod of another app, in another namespace, has the address now: the connections are its own
        assertThat(read(T0.plusSeconds(60), Map.of(A, 5L), Map.of(A, "uid-other"))).isEmpty();
        assertThat(ghosts.remembered(POLICY)).doesNotContainKey(A);
        assertThat(read(T0.plusSeconds(600), Map.of(A, 5L), Map.of())).as("never again, once it is another's")
                .isEmpty();
    }

    @Test
    void anAddressATargetsNewPodHasIsThatPods() {
        ghosts.attribute(POLICY, Map.of(A, WEB_1));
        read(T0, Map.of(A, 5L), Map.of());
        ghosts.attribute(POLICY, Map.of(A, WEB_2)); // the replacement took the address
        assertThat(ghosts.judge(POLICY, Map.of(A, 5L), Set.of(A), Map.of(), T0.plusSeconds(600), GRACE)).isEmpty();
        assertThat(ghosts.remembered(POLICY)).containsEntry(A, WEB_2);
    }

    @Test
    void aTerminatingPodStillHasItsAddress() {
        ghosts.attribute(POLICY, Map.of(A, WEB_1));
        // in the cache (deletionTimestamp set, still shutting down): its connections are its own
        assertThat(ghosts.judge(POLICY, Map.of(A, 5L), Set.of(A), Map.of(), T0, GRACE)).isEmpty();
        assertThat(ghosts.judge(POLICY, Map.of(A, 5L), Set.of(A), Map.of(), T0.plusSeconds(600), GRACE)).isEmpty();
        // or not cached, but the API server still has it (same uid)
        assertThat(read(T0.plusSeconds(900), Map.of(A, 5L), Map.of(A, "uid-1"))).isEmpty();
        assertThat(ghosts.remembered(POLICY)).containsKey(A);
    }

    @Test
    void aPodFoundAgainEndsTheLossItsGraceStartsAfresh() {
        ghosts.attribute(POLICY, Map.of(A, WEB_1));
        read(T0, Map.of(A, 5L), Map.of());
        read(T0.plusSeconds(20), Map.of(A, 5L), Map.of(A, "uid-1"));
        assertThat(read(T0.plusSeconds(40), Map.of(A, 5L), Map.of())).isEmpty();
        assertThat(read(T0.plusSeconds(70), Map.of(A, 5L), Map.of())).singleElement()
                .satisfies(s -> assertThat(s.since()).isEqualTo(T0.plusSeconds(40)));
    }

    @Test
    void anAddressNeverAttributedIsNeverAGhostNorLookedUp() {
        ghosts.attribute(POLICY, Map.of(A, WEB_1));
        var clients = Map.of(A, 2L, "10.0.0.9", 7L, "local", 1L); // another app, a host's psql, a socket
        assertThat(ghosts.unplaced(POLICY, clients, Set.of(A))).as("nothing to look up").isEmpty();
        for (int s = 0; s <= 600; s += 30) {
            assertThat(ghosts.judge(POLICY, clients, Set.of(A), Map.of(), T0.plusSeconds(s), GRACE)).isEmpty();
        }
        assertThat(new Ghosts().judge(POLICY, clients, Set.of(), Map.of(), T0, GRACE)).as("no memory at all")
                .isEmpty();
    }

    @Test
    void ghostsClearWhenTheirBackendsGo() {
        ghosts.attribute(POLICY, Map.of(A, WEB_1));
        read(T0, Map.of(A, 5L), Map.of());
        assertThat(read(T0.plusSeconds(30), Map.of(A, 5L), Map.of())).hasSize(1);
        assertThat(read(T0.plusSeconds(60), Map.of(), Map.of())).as("ended (keepalive, a reap)").isEmpty();
        assertThat(ghosts.remembered(POLICY)).isEmpty();
        assertThat(read(T0.plusSeconds(600), Map.of(A, 3L), Map.of())).as("a later client at the address is no "
                + "pod's").isEmpty();
    }

    @Test
    void theMemoryIsBounded() {
        Map<String, Ghosts.Pod> many = new HashMap<>();
        for (int i = 0; i < Ghosts.REMEMBERED + 100; i++) {
            many.put("10.1." + (i / 250) + "." + (i % 250), new Ghosts.Pod("shop", "p" + i, "u" + i, "Deployment/web"));
        }
        ghosts.attribute(POLICY, many);
        assertThat(ghosts.remembered(POLICY)).hasSize(Ghosts.REMEMBERED);
        ghosts.attribute(POLICY, Map.of(A, WEB_1));
        assertThat(ghosts.remembered(POLICY)).hasSize(Ghosts.REMEMBERED).containsEntry(A, WEB_1);
        ghosts.forget(POLICY);
        assertThat(ghosts.remembered(POLICY)).isEmpty();
    }
}
