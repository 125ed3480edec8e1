package io.poolbudget.ledger;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.LedgerSpec;
import io.poolbudget.planning.InvalidPolicyException;
import io.poolbudget.planning.BudgetCap;
import io.poolbudget.planning.SharedBudgets;
import io.poolbudget.sizing.ClusterLedger.Failed;
import io.poolbudget.sizing.ClusterLedger.Outcome;
import io.poolbudget.sizing.ClusterLedger.Settled;
import io.poolbudget.sizing.ClusterLedger.Tick;
import io.poolbudget.observe.ObservationSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Ticks this cluster's claim in the ledger of every DatabaseBudget with spec.ledger, on a timer of its own (every
 * third of the lease), never inside a reconcile: what its pods may hold ({@link LedgerHolds}) goes in, what this
 * cluster may plan with comes out ({@link #of}, which the policies' passes read), and a change wakes the budget, whose
 * status change wakes its policies. Until the ledger has answered once, and whenever it cannot be reached or refuses,
 * the policies keep what they planned with: a cluster never raises without a claim.
 */
@jakarta.inject.Singleton
public final class LedgerSync implements BudgetCap.Source, AutoCloseable {
    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(LedgerSync.class);

    /** The last outcome of a budget's ticks, the last settled one, and the plans handed out at the last two. */
    public record State(Outcome latest, Settled settled, long handed, long handedBefore) {}

    private final KubernetesClient client;
    /** Only the leading replica ticks: a standby's caches may be empty, and its claim would undercount the pods. */
    private final io.poolbudget.config.Leadership leadership;
    private final String namespace;
    private final Map<String, State> states = new ConcurrentHashMap<>();
    private final Map<String, Map.Entry<String, LedgerStore>> stores = new ConcurrentHashMap<>();
    private final Map<String, Long> due = new ConcurrentHashMap<>();
    private ScheduledExecutorService timer;
    private final java.util.List<Consumer<Map<String, State>>> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** {@code listener} is told every budget's state after each pass of the ticks that changed one (the metrics). */
    public void onTicks(Consumer<Map<String, State>> listener) {
        listeners.add(listener);
    }

    @jakarta.inject.Inject
    public LedgerSync(KubernetesClient client, io.poolbudget.config.OperatorConfig config,
            io.poolbudget.config.Leadership leadership) {
        this.leadership = leadership;
        this.client = client;
        this.namespace = config.leaderElection().namespace().filter(n -> !n.isBlank())
                .orElseGet(client::getNamespace);
    }

    /** Starts ticking the budgets {@code budgets} lists; {@code wake} is told a budget's name when its state moves. */
    public synchronized void start(Supplier<Stream<DatabaseBudget>> budgets, Consumer<String> wake) {
        if (timer != null) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "poolbudget-ledger");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            if (!leadership.leading()) {
                return;
            }
            try {
                due(budgets.get().toList(), wake, System.currentTimeMillis());
            } catch (RuntimeException e) { // the timer must outlive one bad pass; the next one tries again
                LOG.warnf(e, "the ledger's ticks failed; they run again in a second");
            }
        }, 1, 1, TimeUnit.SECONDS);
    }

    private void due(java.util.List<DatabaseBudget> budgets, Consumer<String> wake, long now) {
        java.util.Set<String> named = new java.util.HashSet<>();
        boolean ticked = false;
        for (DatabaseBudget b : budgets) {
            LedgerSpec spec = b.getSpec() == null ? null : b.getSpec().getLedger();
            if (spec == null) {
                continue;
            }
            String name = b.getMetadata().getName();
            named.add(name);
            if (due.getOrDefault(name, 0L) <= now) {
                due.put(name, now + spec.getLeaseSeconds() * 1000L / 3);
                State before = states.get(name);
                State after = tick(b, spec, before);
                ticked = true;
                states.put(name, after);
                if (before == null || !same(before, after)) {
                    wake.accept(name);
                }
            }
        }
        boolean moved = false;
        for (String gone : java.util.List.copyOf(states.keySet())) {
            if (!named.contains(gone)) {
                forget(gone);
                wake.accept(gone);
                moved = true;
            }
        }
        if (moved || ticked) {
            Map<String, State> all = Map.copyOf(states);
            listeners.forEach(l -> l.accept(all));
        }
    }

    private State tick(DatabaseBudget budget, LedgerSpec spec, State before) {
        long declared;
        try {
            declared = SharedBudgets.total(budget).connections();
        } catch (InvalidPolicyException e) {
            return failed(before, new Failed("InvalidSpec", e.getMessage()));
        }
        Evidence evidence;
        try {
            evidence = LedgerHolds.evidence(spec.getEvidence());
        } catch (IllegalArgumentException e) {
            return failed(before, new Failed("InvalidSpec", "spec.ledger.evidence: " + e.getMessage()));
        }
        LedgerStore.Credentials credentials;
        try {
            credentials = credentials(spec.getSecretName());
        } catch (IllegalStateException e) {
            return failed(before, new Failed("SecretUnusable", e.getMessage()));
        }
        long holds = LedgerHolds.of(budget.getStatus(), before);
        var tick = new Tick(spec.getCluster(), spec.getWeight(), declared, holds, spec.getLeaseSeconds() * 1000L,
                evidence.describe(), before == null || before.settled() == null);
        Outcome outcome = store(budget.getMetadata().getName(), credentials, spec.getSchema()).tick(spec.getName(),
                tick);
        if (outcome instanceof Settled s) {
            return new State(s, s, s.planWith(), before == null ? s.planWith() : before.handed());
        }
        return failed(before, outcome);
    }

    private static State failed(State before, Outcome outcome) {
        return before == null ? new State(outcome, null, 0, 0)
                : new State(outcome, before.settled(), before.handed(), before.handedBefore());
    }

    private LedgerStore store(String budget, LedgerStore.Credentials credentials, String schema) {
        String key = credentials + "/" + schema;
        var entry = stores.compute(budget, (k, old) -> {
            if (old != null && old.getKey().equals(key)) {
                return old;
            }
            if (old != null) {
                old.getValue().close();
            }
            return Map.entry(key, new LedgerStore(credentials, schema));
        });
        return entry.getValue();
    }

    /** The ledger Secret's keys, read by a GET in the operator's namespace (the chart grants get on its name). */
    private LedgerStore.Credentials credentials(String name) {
        Secret secret;
        try {
            secret = client.secrets().inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            throw new IllegalStateException("the operator may not read Secret " + namespace + "/" + name + " (the API "
                    + "server answered " + e.getCode() + "): list it in the chart's ledger.secretNames");
        }
        if (secret == null) {
            throw new IllegalStateException("no Secret " + name + " in the operator's namespace " + namespace
                    + ": create it with the keys jdbcUrl, username and password");
        }
        String url = ObservationSource.value(secret, ObservationSource.JDBC_URL);
        String user = ObservationSource.value(secret, ObservationSource.USERNAME);
        String password = ObservationSource.value(secret, ObservationSource.PASSWORD);
        if (url == null || user == null || password == null || !url.startsWith("jdbc:postgresql:")) {
            throw new IllegalStateException("Secret " + namespace + "/" + name + " needs the keys jdbcUrl "
                    + "(jdbc:postgresql://host:port/db), username and password");
        }
        return new LedgerStore.Credentials(url, user, password);
    }

    private static boolean same(State a, State b) {
        return a.latest().equals(b.latest()) || a.latest() instanceof Settled x && b.latest() instanceof Settled y
                && x.planWith() == y.planWith() && x.granted() == y.granted() && x.target() == y.target()
                && x.waits().equals(y.waits()) && LedgerHolds.claimsAlike(x.claims(), y.claims());
    }

    /** The last state of a budget's ticks; null before the first. */
    public State state(String budget) {
        return states.get(budget);
    }

    @Override
    public BudgetCap of(DatabaseBudget budget) {
        if (budget.getSpec() == null || budget.getSpec().getLedger() == null) {
            return null;
        }
        return LedgerHolds.cap(states.get(budget.getMetadata().getName()), budget.getSpec().getLedger());
    }

    /** A budget without a ledger now: nothing caps it, and its connection closes. */
    void forget(String budget) {
        states.remove(budget);
        due.remove(budget);
        var entry = stores.remove(budget);
        if (entry != null) {
            entry.getValue().close();
        }
    }

    @jakarta.annotation.PreDestroy
    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
        java.util.List.copyOf(stores.keySet()).forEach(this::forget);
    }
}
