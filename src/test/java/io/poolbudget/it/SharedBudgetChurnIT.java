package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A namespace's pods keep holding a shared budget's connections after its policy stops being one of the budget's
 * admitted policies: its namespace leaves the selector, the DatabaseBudget is deleted and recreated without it, or
 * its policy switches to its own spec.database. What those pods hold must count against the budget until they are
 * gone, and the other namespace's raise must wait for that. Pods hold their pools ~1 s after deletion
 * ({@link GracefulShutdown}); every pod event in both namespaces is sampled, and a pod counts until it is deleted.
 */
class SharedBudgetChurnIT extends OperatorTestBase {
    // budget 30 cores × 2 = 60, weights 1:1 -> 30 each. When b's 4 pods (4 × its pool) are outside, a plans with
    // 60 minus what they hold. The test asserts budgets and orderings, and reads the pool sizes from status.
    static final int BUDGET = 60;
    @RegisterExtension
    final SharedBudgetFixture budget = new SharedBudgetFixture(getClass());

    @BeforeAll
    static void start() {
        startOperator("churn", "0s");
    }

    private String nsB;
    private Sampler sampler;

    /** Both namespaces admitted at weight 1, each Deployment applied at pool 5 and rolled out; sampling from here. */
    private Watch[] settle() {
        nsB = otherNamespace();
        budget.admit(ns);
        budget.admit(nsB);
        budget.apply("{name: churn-pg, cores: 30}", ns, 1, nsB, 1);
        for (String app : new String[]{"a", "b"}) {
            in(app.equals("a") ? ns : nsB, () -> {
                // each rollout step outlasts a pod's ~1 s shutdown, so at most one step's old pod is terminating
                // (the peak-pod rule's 1) and the sizes stay put between the steps of a scenario
                var d = GracefulShutdown.hold(deployment(app, 4, Map.of()));
                d.getSpec().setMinReadySeconds(2);
                create(d);
                applyPolicy(budget.policy("hikari-env", app));
            });
        }
        GracefulShutdown.ensureRunning(client);
        awaitPolicy("db", applied("a", 30));
        in(nsB, () -> awaitPolicy("db", applied("b", 30)));
        awaitRolledOut("a");
        in(nsB, () -> awaitRolledOut("b"));
        awaitQuiet(ns, "a");
        awaitQuiet(nsB, "b");
        sampler = new Sampler();
        return new Watch[]{sample(ns), sample(nsB)};
    }

    /**
     * The namespace's pods have settled: exactly the 4 replicas, none shutting down, all at the pool size status
     * gives (the onboarding rollouts of both policies are over, so the sampling starts from a steady state).
     */
    private void awaitQuiet(String namespace, String app) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            int size = from(namespace, () -> poolOf(app));
            var pods = client.pods().inNamespace(namespace).withLabel("app", app).list().getItems();
            if (pods.size() == 4 && pods.stream().allMatch(p -> p.getMetadata().getDeletionTimestamp() == null
                    && String.valueOf(size).equals(env(p.getSpec().getContainers().get(0).getEnv(), MAX)))) {
                return;
            }
            assertThat(System.nanoTime()).as("pods of " + namespace + "/" + app + " settle at pool " + size + ": "
                    + pods.stream().map(p -> p.getMetadata().getName()).toList()).isLessThan(deadline);
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** The namespace's pods now, then every change from that list's version on: none missed, none counted twice. */
    private Watch sample(String namespace) {
        var list = client.pods().inNamespace(namespace).list();
        sampler.add(list.getItems());
        return client.pods().inNamespace(namespace).withResourceVersion(list.getMetadata().getResourceVersion())
                .watch(sampler);
    }

    private DatabaseBudget awaitBudget(java.util.function.Predicate<DatabaseBudget> condition) {
        return client.resources(DatabaseBudget.class).withName(budget.name).waitUntilCondition(b -> b != null
                && b.getStatus() != null && condition.test(b), 90, TimeUnit.SECONDS);
    }

    /** The target is Applied (its size rolled out) under a budget of {@code share} connections. */
    static java.util.function.Predicate<PoolPolicy> applied(String target, long share) {
        return p -> {
            var t = target(p, target);
            return p.getStatus().getBudget() != null
                    && Long.valueOf(share).equals(p.getStatus().getBudget().getConnections())
                    && t != null && "Applied".equals(t.getState()) && t.getPoolSize() != null
                    && t.getPoolSize().equals(t.getAppliedPoolSize());
        };
    }

    private int poolOf(String target) {
        return target(awaitPolicy("db", p -> target(p, target) != null), target).getPoolSize();
    }

    /** b's pods go away (its Deployment scaled to 0); a may then take the whole budget, once they are gone. */
    private void bLeavesAndAGrowsOnlyAfterItsPodsAreGone() {
        sampler.raiseAbove(poolOf("a"));
        in(nsB, () -> client.apps().deployments().inNamespace(nsB).withName("b").scale(0));
        aGrowsToTheWholeBudgetAfterBsOldPodsAreGone();
    }

    private void aGrowsToTheWholeBudgetAfterBsOldPodsAreGone() {
        // the pods go at once, each ~1 s after its deletion: a raise waits while any of them shuts down
        awaitPolicy("db", applied("a", BUDGET).and(p -> target(p, "a").getPoolSize() > sampler.raiseAbove));
        awaitRolledOut("a");
        assertThat(sampler.firstRaisedA).as("a's first pod with a larger pool started after b's last old pod was gone")
                .isGreaterThan(sampler.lastOldBGone);
    }

    private void report(String scenario, Watch... watches) {
        for (Watch w : watches) {
            w.close();
        }
        System.out.printf("SharedBudgetChurnIT %s: %d pod events sampled in 2 namespaces, peak %d of %d connections "
                + "(%s)%n", scenario, sampler.events, sampler.peak, BUDGET, sampler.atPeak);
        for (String n : new String[]{ns, nsB}) {
            client.v1().events().inNamespace(n).list().getItems().stream()
                    .filter(e -> "PoolPolicy".equals(e.getInvolvedObject().getKind()))
                    .sorted(java.util.Comparator.comparing(e -> e.getMetadata().getCreationTimestamp()))
                    .forEach(e -> System.out.printf("  %s %s %s: %s%n", e.getMetadata().getCreationTimestamp(),
                            n.equals(ns) ? "a" : "b", e.getReason(), e.getMessage()));
        }
        System.out.println("  peak at " + sampler.peakAt);
        assertThat(sampler.events).as("pod events sampled").isGreaterThan(10);
        assertThat(sampler.peak).as("most connections the budget's pods held at one moment")
                .isLessThanOrEqualTo(BUDGET);
    }

    @Test
    void aNamespaceThatLeavesTheSelectorKeepsCountingUntilItsPodsAreGone() {
        Watch[] watches = settle();
        long held = 4L * from(nsB, () -> poolOf("b"));
        client.namespaces().withName(nsB).edit(n -> {
            n.getMetadata().getLabels().remove("poolbudget.io/it-shared");
            return n;
        });
        // b is refused and left alone; its 4 pods still hold what they held, so a plans with 60 minus that
        awaitPolicy("db", applied("a", BUDGET - held));
        var status = awaitBudget(b -> b.getStatus().getHeldOutside() != null && b.getStatus().getHeldOutside() == held)
                .getStatus();
        assertThat(status.getOutside()).singleElement().satisfies(o -> {
            assertThat(o.getNamespace()).isEqualTo(nsB);
            assertThat(o.getPods()).isEqualTo(4);
            assertThat(o.getReason()).isEqualTo("namespace " + nsB + " is not selected");
        });
        assertThat(awaitPolicy("db", p -> p.getStatus().getBudget() != null).getStatus().getBudget().getExplanation())
                .contains((BUDGET - held) + " = 60 − " + held + " held by pods outside its admitted policies");
        awaitRolledOut("a");
        bLeavesAndAGrowsOnlyAfterItsPodsAreGone();
        report("namespace leaves the selector", watches);
    }

    @Test
    void aDeletedBudgetRecreatedWithoutANamespaceStillCountsItsPods() {
        Watch[] watches = settle();
        long held = 4L * from(nsB, () -> poolOf("b"));
        client.resources(DatabaseBudget.class).withName(budget.name).delete();
        client.resources(DatabaseBudget.class).withName(budget.name).waitUntilCondition(b -> b == null, 30,
                TimeUnit.SECONDS);
        client.namespaces().withName(nsB).edit(n -> {
            n.getMetadata().getLabels().remove("poolbudget.io/it-shared");
            return n;
        });
        budget.apply("{name: churn-pg, cores: 30}", ns, 1, nsB, 1); // recreated: b's namespace no longer selected
        awaitPolicy("db", applied("a", BUDGET - held));
        awaitRolledOut("a");
        bLeavesAndAGrowsOnlyAfterItsPodsAreGone();
        report("budget deleted and recreated", watches);
    }

    @Test
    void aPolicyThatSwitchesToItsOwnDatabaseCountsUntilItsOldPodsAreReplaced() {
        Watch[] watches = settle();
        sampler.countOnlyOldB();
        in(nsB, () -> applyPolicy("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: db}
                spec:
                  database: {cores: 10}
                  injection: {preset: hikari-env}
                  targets: [{name: b}]
                """));
        // b's own database (20): its pods are replaced without the budget's annotation, and a grows by what each old
        // pod held as it goes (reserved until then), to the whole budget once they are all gone
        in(nsB, () -> {
            awaitPolicy("db", applied("b", 20));
            awaitRolledOut("b");
        });
        awaitPolicy("db", applied("a", BUDGET));
        awaitRolledOut("a");
        assertThat(awaitBudget(b -> b.getStatus().getHeldOutside() != null && b.getStatus().getHeldOutside() == 0)
                .getStatus().getOutside()).isEmpty();
        report("policy switches to its own database", watches);
    }

    /**
     * Σ pool size over the budget's live pods at every pod event: a's pods, and b's pods that hold the budget's
     * connections (all of them; with {@link #countOnlyOldB} only those that existed before b moved away).
     */
    static final class Sampler implements Watcher<Pod> {
        private final Map<String, Integer> sizes = new HashMap<>();
        private Set<String> oldB;
        int peak;
        String atPeak = "at the start";
        java.time.Instant peakAt;
        int events;
        long lastOldBGone;
        volatile int raiseAbove = Integer.MAX_VALUE;
        long firstRaisedA = Long.MAX_VALUE;

        /** From now on, note when a's first pod with a pool larger than {@code size} appears. */
        synchronized void raiseAbove(int size) {
            raiseAbove = size;
        }

        synchronized void add(Iterable<Pod> pods) {
            pods.forEach(p -> sizes.put(p.getMetadata().getName(), size(p)));
            peak = Math.max(peak, total());
        }

        synchronized void countOnlyOldB() {
            oldB = Set.copyOf(sizes.keySet());
        }

        @Override
        public synchronized void eventReceived(Action action, Pod pod) {
            events++;
            long now = System.nanoTime();
            String name = pod.getMetadata().getName();
            String app = pod.getMetadata().getLabels().get("app");
            if (action == Action.DELETED) {
                if (sizes.remove(name) != null && "b".equals(app)) {
                    lastOldBGone = now;
                }
            } else if (!"b".equals(app) || oldB == null || oldB.contains(name)) {
                sizes.put(name, size(pod));
                if ("a".equals(app) && size(pod) > raiseAbove) {
                    firstRaisedA = Math.min(firstRaisedA, now);
                }
            }
            if (total() > peak) {
                peak = total();
                atPeak = new java.util.TreeMap<>(sizes).toString();
                peakAt = java.time.Instant.now();
            }
        }

        private int total() {
            return sizes.values().stream().mapToInt(Integer::intValue).sum();
        }

        private static int size(Pod pod) {
            String v = env(pod.getSpec().getContainers().get(0).getEnv(), MAX);
            return v == null ? 0 : Integer.parseInt(v);
        }

        @Override
        public void onClose(WatcherException cause) {}
    }
}
