package io.poolbudget.config;

/**
 * The size of the pages every list the operator makes is read in: its informers' first lists and its own reads (here,
 * below everything that lists, so that none depends on another for it).
 */
public final class ListPages {
    /**
     * Every informer lists in pages of this many objects: an unpaged list of 50,000 Deployments is one response of
     * some 150 MB, read whole and deserialized whole (about 330 MB more) before the first object reaches a store.
     * Pages of 1,000 were still too big for a small heap: with several informers listing at once, the young
     * generation collected in the middle of a page and promoted its not-yet-pruned objects, and a restart at 50,000
     * Deployments in 154 MiB of heap ran 23 full GCs (9.2 s of pauses, live 116 MiB after one); pages of 250 made
     * that 5 full GCs (2.8 s, 97 MiB), for four times the list requests (bench/results/operator-scale.txt).
     */
    public static final long LIMIT = 250;

    private ListPages() {}
}
