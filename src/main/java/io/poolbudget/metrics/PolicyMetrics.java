package io.poolbudget.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Per-policy gauges: the budget, what the plan allocates, and what the pods hold now. One series per
 * existing policy; {@link #remove} drops a deleted policy's series, so cardinality follows the objects.
 */
public final class PolicyMetrics {
    private final MeterRegistry registry;
    private final Map<String, Series> series = new ConcurrentHashMap<>();

    public PolicyMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    private record Series(String database, AtomicLong budget, AtomicLong allocated, AtomicLong live, List<Meter> meters) {}

    /** Sets the policy's values; a null database name is exported as "". */
    public void record(String namespace, String policy, String database, long budget, long allocated, long live) {
        String key = namespace + "/" + policy;
        Series s = series.get(key);
        String db = database == null ? "" : database;
        if (s != null && !s.database().equals(db)) {
            remove(namespace, policy); // the database's name changed: its label with it
            s = null;
        }
        if (s == null) {
            Tags tags = Tags.of("namespace", namespace, "policy", policy, "database", db);
            var budgetValue = new AtomicLong();
            var allocatedValue = new AtomicLong();
            var liveValue = new AtomicLong();
            List<Meter> meters = List.of(
                    gauge("poolbudget_budget_connections", "Connections the policy's targets may hold together", tags, budgetValue),
                    gauge("poolbudget_allocated_connections", "Connections the planned pool sizes allocate at peak pods",
                            tags, allocatedValue),
                    gauge("poolbudget_live_connections", "Connections the targets' pods hold now, by their own specs "
                            + "(terminating pods included)", tags, liveValue),
                    Gauge.builder("poolbudget_live_over_budget", liveValue, v -> v.get() > budgetValue.get() ? 1 : 0)
                            .description("1 while the pods hold more connections than the budget").tags(tags)
                            .register(registry));
            s = new Series(db, budgetValue, allocatedValue, liveValue, meters);
            series.put(key, s);
        }
        s.budget().set(budget);
        s.allocated().set(allocated);
        s.live().set(live);
    }

    public void remove(String namespace, String policy) {
        Series s = series.remove(namespace + "/" + policy);
        if (s != null) {
            s.meters().forEach(registry::remove);
        }
    }

    private Meter gauge(String name, String help, Tags tags, AtomicLong value) {
        return Gauge.builder(name, value, AtomicLong::get).description(help).tags(tags).register(registry);
    }
}
