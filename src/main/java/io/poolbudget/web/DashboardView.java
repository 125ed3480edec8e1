package io.poolbudget.web;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.api.v1alpha1.TargetStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What the dashboard shows, built from the PoolPolicies and their Events alone (no cluster calls):
 * filtered by namespace, name and problems, sorted by namespace and name, one page at a time, so a
 * page costs the same at 10 policies or 10,000. Everything is read from the status the operator
 * wrote; a raise's "applies at" is its pendingSince plus the stabilization window.
 */
public final class DashboardView {
    public static final int MAX_PAGE_SIZE = 100;
    static final int EVENTS_PER_POLICY = 5;

    public record Query(String namespace, String search, boolean problemsOnly, int page, int size) {
        public Query {
            namespace = namespace == null || namespace.isBlank() ? null : namespace;
            search = search == null || search.isBlank() ? null : search.toLowerCase(Locale.ROOT);
            page = Math.max(1, page);
            size = Math.min(MAX_PAGE_SIZE, Math.max(1, size));
        }
    }

    /** {@code databases}: the page's policies grouped by database (DatabaseCards), the cards the page draws. */
    public record Page(List<String> namespaces, Totals totals, int page, int pages, int size, List<PolicyView> policies,
            List<DatabaseCards.DatabaseView> databases, String stabilizationWindow) {}

    /**
     * Over every policy the filter keeps, not only this page. {@code liveAnyNumber}: pods of one of them may open any
     * number of connections (status.liveConnectionsUnbounded), so the sum {@code live} is none (null); as in the views
     * below, where {@code live} is null with it.
     */
    public record Totals(int policies, int withProblems, long budget, long allocated, Long live,
            boolean liveAnyNumber) {}

    public record PolicyView(String namespace, String name, String database, Long budget, String budgetExplanation,
            Long allocated, Long unallocated, String unallocatedReason, Long live, boolean liveAnyNumber,
            boolean dryRun,
            boolean problem, Long generation, Long observedGeneration, List<ConditionView> conditions,
            List<TargetView> targets, Integer targetsOmitted, List<EventView> events,
            io.poolbudget.api.v1alpha1.ObservedStatus observed) {}

    public record ConditionView(String type, String status, String reason, String message, String since) {}

    public record TargetView(String kind, String name, Long basisReplicas, Long replicasThatFit, Long peakPods,
            Long seenTerminatingPods,
            Integer poolSize, Integer appliedPoolSize, Long connections, Long live, boolean liveAnyNumber,
            Long observed,
            String state, String message, String pendingSince, String raiseAt, String explanation, String resize,
            String demand) {}

    public record EventView(String type, String reason, String message, Integer count, String last) {}

    private DashboardView() {}

    public static Page page(Collection<PoolPolicy> all, Collection<Event> events, Query q, Duration window) {
        return page(all, events, List.of(), q, window);
    }

    /** Sorted by database (a DatabaseBudget's policies together), then namespace and name. */
    public static Page page(Collection<PoolPolicy> all, Collection<Event> events,
            Collection<io.poolbudget.api.v1alpha1.DatabaseBudget> budgets, Query q, Duration window) {
        List<String> namespaces = all.stream().map(p -> p.getMetadata().getNamespace()).distinct().sorted().toList();
        List<PoolPolicy> kept = all.stream()
                .filter(p -> q.namespace() == null || q.namespace().equals(p.getMetadata().getNamespace()))
                .filter(p -> q.search() == null || matches(p, q.search()))
                .filter(p -> !q.problemsOnly() || problem(p.getStatus()))
                .sorted(Comparator.comparing(DatabaseCards::key).thenComparing(p -> p.getMetadata().getNamespace())
                        .thenComparing(p -> p.getMetadata().getName()))
                .toList();
        // a sum with a term of any number is no number
        boolean anyNumber = kept.stream().anyMatch(p -> p.getStatus() != null
                && Boolean.TRUE.equals(p.getStatus().getLiveConnectionsUnbounded()));
        var totals = new Totals(kept.size(), (int) kept.stream().filter(p -> problem(p.getStatus())).count(),
                sum(kept, st -> st.getBudget() == null ? null : st.getBudget().getConnections()),
                sum(kept, PoolPolicyStatus::getAllocated),
                anyNumber ? null : sum(kept, PoolPolicyStatus::getLiveConnections), anyNumber);
        int pages = Math.max(1, (kept.size() + q.size() - 1) / q.size());
        int page = Math.min(q.page(), pages);
        List<PoolPolicy> shown = kept.subList(Math.min(kept.size(), (page - 1) * q.size()),
                Math.min(kept.size(), page * q.size()));
        Map<String, List<Event>> byPolicy = events.stream().filter(e -> e.getInvolvedObject() != null)
                .collect(Collectors.groupingBy(e -> e.getInvolvedObject().getNamespace() + "/"
                        + e.getInvolvedObject().getName() + "/" + e.getInvolvedObject().getUid()));
        List<PolicyView> views = shown.stream().map(p -> view(p, byPolicy.getOrDefault(p.getMetadata().getNamespace()
                + "/" + p.getMetadata().getName() + "/" + p.getMetadata().getUid(), List.of()), window)).toList();
        return new Page(namespaces, totals, page, pages, q.size(), views, DatabaseCards.of(shown, views, budgets),
                window.toString());
    }

    private static boolean matches(PoolPolicy p, String search) {
        if (p.getMetadata().getName().toLowerCase(Locale.ROOT).contains(search)) {
            return true;
        }
        String db = io.poolbudget.planning.PoolerTier.databaseName(p);
        if (db != null && db.toLowerCase(Locale.ROOT).contains(search)) {
            return true;
        }
        return p.getStatus() != null && p.getStatus().getTargets().stream()
                .anyMatch(t -> t.getName() != null && t.getName().toLowerCase(Locale.ROOT).contains(search));
    }

    /** Not Ready, oversubscribed, or in conflict: what a person should look at first. */
    static boolean problem(PoolPolicyStatus st) {
        if (st == null) {
            return false; // not reconciled yet
        }
        for (Condition c : st.getConditions()) {
            boolean bad = "Ready".equals(c.getType()) ? "False".equals(c.getStatus())
                    : ("Oversubscribed".equals(c.getType()) || "Conflict".equals(c.getType()))
                            && "True".equals(c.getStatus());
            if (bad) {
                return true;
            }
        }
        return false;
    }

    private static long sum(List<PoolPolicy> policies, java.util.function.Function<PoolPolicyStatus, Long> value) {
        return policies.stream().map(PoolPolicy::getStatus).filter(Objects::nonNull).map(value).filter(Objects::nonNull)
                .mapToLong(Long::longValue).sum();
    }

    private static PolicyView view(PoolPolicy p, List<Event> events, Duration window) {
        PoolPolicyStatus st = p.getStatus() == null ? new PoolPolicyStatus() : p.getStatus();
        List<TargetView> targets = st.getTargets().stream().map(t -> target(t, window)).toList();
        List<ConditionView> conditions = st.getConditions().stream().map(c -> new ConditionView(c.getType(),
                c.getStatus(), c.getReason(), c.getMessage(), c.getLastTransitionTime())).toList();
        List<EventView> recent = events.stream().sorted(Comparator.comparing(DashboardView::lastSeen).reversed())
                .limit(EVENTS_PER_POLICY)
                .map(e -> new EventView(e.getType(), e.getReason(), e.getMessage(), e.getCount(),
                        lastSeen(e)))
                .toList();
        return new PolicyView(p.getMetadata().getNamespace(), p.getMetadata().getName(),
                io.poolbudget.planning.PoolerTier.databaseName(p),
                st.getBudget() == null ? null : st.getBudget().getConnections(),
                st.getBudget() == null ? null : st.getBudget().getExplanation(), st.getAllocated(), st.getUnallocated(),
                st.getUnallocatedReason(), st.getLiveConnections(),
                Boolean.TRUE.equals(st.getLiveConnectionsUnbounded()),
                p.getSpec() != null
                        && (Boolean.TRUE.equals(p.getSpec().getDryRun()) || p.getSpec().getInjection() == null),
                problem(p.getStatus()), p.getMetadata().getGeneration(), st.getObservedGeneration(), conditions,
                targets,
                st.getTargetsOmitted(), recent, st.getObserved());
    }

    private static TargetView target(TargetStatus t, Duration window) {
        String raiseAt = null;
        if (t.getPendingSince() != null) {
            raiseAt = Instant.parse(t.getPendingSince()).plus(window).toString();
        }
        return new TargetView(t.getKind(), t.getName(), t.getBasisReplicas(), t.getReplicasThatFit(), t.getPeakPods(),
                t.getSeenTerminatingPods(),
                t.getPoolSize(), t.getAppliedPoolSize(), t.getConnections(), t.getLiveConnections(),
                Boolean.TRUE.equals(t.getLiveConnectionsUnbounded()), t.getObservedConnections(), t.getState(),
                t.getMessage(), t.getPendingSince(), raiseAt, t.getExplanation(), resize(t), demand(t));
    }

    /**
     * spec.allocation Demand or Recommend, beside the allocation: "demand 7 per pod (agent), nominal 10, Demand would
     * give 12"; null with mode Weights.
     */
    static String demand(TargetStatus t) {
        if (t.getNominalPoolSize() == null) {
            return null;
        }
        return (t.getDemand() == null ? "no demand reported" : "demand " + t.getDemand() + " per pod ("
                + t.getDemandSource() + ")") + ", nominal " + t.getNominalPoolSize()
                + (t.getRecommendedPoolSize() == null ? "" : ", Demand would give " + t.getRecommendedPoolSize());
    }

    /** How its pods take a new size: "live, 3 of 3 pods confirmed" or "by rollout"; null before the first write. */
    private static String resize(TargetStatus t) {
        if (t.getResize() == null) {
            return null;
        }
        return "Live".equals(t.getResize()) ? "live, " + t.getPodsConfirmed() + " pods confirmed, "
                + t.getPodsHoldingSize() + " hold the size" + (t.getPodsPending() == null ? ""
                        : "; pending: " + String.join("; ", t.getPodsPending()))
                : "by rollout";
    }

    /** The newest time an Event carries: series, lastTimestamp, eventTime or creation; "" if none. */
    private static String lastSeen(Event e) {
        if (e.getSeries() != null && e.getSeries().getLastObservedTime() != null) {
            return e.getSeries().getLastObservedTime().getTime();
        }
        if (e.getLastTimestamp() != null) {
            return e.getLastTimestamp();
        }
        if (e.getEventTime() != null && e.getEventTime().getTime() != null) {
            return e.getEventTime().getTime();
        }
        return e.getMetadata() == null || e.getMetadata().getCreationTimestamp() == null ? ""
                : e.getMetadata().getCreationTimestamp();
    }
}
