package io.poolbudget.memory;

import io.poolbudget.decide.SettledWorkloads;

import io.fabric8.kubernetes.api.model.Condition;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * What this operator process remembers between passes: of each PoolPolicy, keyed by its uid ({@link Entry}), and of
 * the workloads ({@link SettledWorkloads}). It is lost with the process, and nothing in it is needed to decide
 * correctly: a restarted operator reads what it must from the cluster and the policies' statuses. A policy that goes
 * is forgotten by one call, {@link #forget}, which also tells the components that keep something of it outside (its
 * metric series, its database reader's connection).
 */
@Singleton
public final class PolicyMemory {
    /** One policy's memory. */
    public static final class Entry {
        private volatile List<Condition> reported;
        private volatile Instant overSince;
        private volatile java.util.Set<String> agentProblems;
        private volatile String transitionWarned;
        private volatile io.poolbudget.decide.DemandState demand = io.poolbudget.decide.DemandState.EMPTY;

        /**
         * spec.allocation Demand or Recommend: each target's smoothed demand and last size, handed to the next pass
         * (lost on a restart: every target starts again at its nominal share, which fits the budget).
         */
        public io.poolbudget.decide.DemandState demand() {
            return demand;
        }

        public void demand(io.poolbudget.decide.DemandState state) {
            demand = state == null ? io.poolbudget.decide.DemandState.EMPTY : state;
        }

        /** Keeps the rollout warning now sent; returns whether it is the one sent last (not to be sent again). */
        public boolean transitionWarned(String message) {
            boolean same = message.equals(transitionWarned);
            transitionWarned = message;
            return same;
        }

        /**
         * Keeps the live-resize agents' problems now reported, and returns those reported before (null: none yet in this
         * process).
         */
        public java.util.Set<String> agentProblems(java.util.Set<String> now) {
            var before = agentProblems;
            agentProblems = java.util.Set.copyOf(now);
            return before;
        }
        private volatile boolean overReported;

        /**
         * The conditions this process last reported for the policy, null before it reported any: the informer's copy of
         * the status can lag the process's own write by a pass, and a stale copy must not end a condition that lasts
         * nor repeat an Event.
         */
        public List<Condition> reported() {
            return reported;
        }

        public void reported(List<Condition> conditions) {
            reported = conditions == null ? null : List.copyOf(conditions);
        }

        /** Since when the policy's pods have declared more connections than its budget; null while they do not. */
        public Instant overSince() {
            return overSince;
        }

        public void overSince(Instant since) {
            overSince = since;
        }

        /**
         * Whether a moment over the budget was reported (LiveOverBudget) and its all-clear not yet sent: it stays open
         * while the policy is Oversubscribed in between, so that its all-clear comes once the pods are within the
         * budget.
         */
        public boolean overReported() {
            return overReported;
        }

        public void overReported(boolean open) {
            overReported = open;
        }
    }

    private final Map<String, Entry> policies = new ConcurrentHashMap<>();
    private final SettledWorkloads workloads = new SettledWorkloads();
    private final List<Consumer<PoolPolicy>> forgetting = new CopyOnWriteArrayList<>();

    /** The policy's memory, made empty the first time it is asked for. */
    public Entry of(PoolPolicy policy) {
        return policies.computeIfAbsent(key(policy), k -> new Entry());
    }

    /** The policy's memory if there is any, else null (it reads nothing into being). */
    public Entry peek(PoolPolicy policy) {
        return policies.get(key(policy));
    }

    /**
     * The conditions this process last reported for the policy, else those of its cached status (null: none): the
     * conditions a status or an Event is built against.
     */
    public List<Condition> lastReported(PoolPolicy policy) {
        Entry e = peek(policy);
        List<Condition> mine = e == null ? null : e.reported();
        return mine != null ? mine : policy.getStatus() == null ? null : policy.getStatus().getConditions();
    }

    /** What this process knows of the workloads' pods. */
    public SettledWorkloads workloads() {
        return workloads;
    }

    /** {@code forget} is told of every policy forgotten from now on. */
    public void onForget(Consumer<PoolPolicy> forget) {
        forgetting.add(forget);
    }

    /** The policy is gone: forget everything of it, here and in the components that keep something of it. */
    public void forget(PoolPolicy policy) {
        policies.remove(key(policy));
        forgetting.forEach(f -> f.accept(policy));
    }

    private static String key(PoolPolicy p) {
        return p.getMetadata().getUid() != null ? p.getMetadata().getUid()
                : p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
    }
}
