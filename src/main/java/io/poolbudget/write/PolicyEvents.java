package io.poolbudget.write;

import io.poolbudget.decide.PassResult;
import io.poolbudget.decide.TargetOutcome;
import io.poolbudget.memory.PolicyMemory;
import io.poolbudget.status.Conditions;
import io.poolbudget.status.Holding;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.jboss.logging.Logger;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Kubernetes Events on a PoolPolicy: one for every size the operator wrote, and one for every
 * problem when it appears or changes (not on every pass, so a standing problem does not spam). What it last
 * reported of each policy it keeps in the {@link PolicyMemory}; its sender thread is its own, stopped on shutdown.
 */
@Singleton
public final class PolicyEvents {
    private static final Logger LOG = Logger.getLogger(PolicyEvents.class);
    /** The events' source component. */
    public static final String COMPONENT = "poolbudget-operator";
    public static final String APPLIED = "PoolSizeApplied";
    public static final String RELEASED = "PoolSizeReleased";
    public static final String LIVE_WITHIN_BUDGET = "LiveWithinBudget";
    public static final String AGENT_PROBLEM = "LiveAgentProblem";
    /** spec.allocation Recommend: mode Demand would give a target more than one connection per pod more or less. */
    public static final String RECOMMENDED = "AllocationRecommended";
    /** A lower size written whose rollout may hold more than the budget while it rolls (old pods beside new ones). */
    public static final String ROLLOUT_MAY_EXCEED_BUDGET = "RolloutMayExceedBudget";
    /** More writes than this in one pass make one summary Event instead of one each. */
    public static final int WRITES_ONE_BY_ONE = 10;

    private final KubernetesClient client;
    private final PolicyMemory memory;

    /**
     * Events are sent from one thread of their own, as client-go's recorder sends them: a pass does not wait for them
     * (under load one create took longer than the rest of the pass, and the status waited behind it). When
     * {@link #QUEUED} wait already (1,000 policies applied at once), the pass sends its own: it slows down rather than
     * lose one.
     */
    /** Package-private for tests, which wait for it to be idle. */
    final ThreadPoolExecutor sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(QUEUED), r -> {
                Thread t = new Thread(r, "poolbudget-events");
                t.setDaemon(true);
                return t;
            }, new ThreadPoolExecutor.CallerRunsPolicy());
    public static final int QUEUED = 1000;

    public PolicyEvents(KubernetesClient client, PolicyMemory memory) {
        this.client = client;
        this.memory = memory;
    }

    @PreDestroy
    void stop() {
        sender.shutdown();
    }

    /** The Events a pass's result and the status built from it call for; the status's conditions are now reported. */
    public void record(PoolPolicy policy, PassResult result, PoolPolicyStatus status) {
        var written = result.targets().stream().filter(TargetOutcome::wrote).toList();
        if (written.size() <= WRITES_ONE_BY_ONE) {
            written.forEach(t -> normal(policy, APPLIED, t.kind() + "/" + t.name() + ": pool size "
                    + t.applied() + " (" + t.messageAlone() + ")"));
        } else {
            normal(policy, APPLIED, "pool sizes written to " + written.size() + " workloads, e.g. " + written.stream()
                    .limit(WRITES_ONE_BY_ONE).map(t -> t.kind() + "/" + t.name() + " " + t.applied())
                    .collect(Collectors.joining(", ")) + "; status.targets has the rest");
        }
        transitions(policy, written);
        // The conditions last reported for this policy: the informer's copy of its status can lag our own patch by a
        // pass, and an Event must not be repeated because of that.
        List<Condition> before = memory.lastReported(policy);
        before = before == null ? List.of() : before;
        var entry = memory.of(policy);
        entry.reported(status.getConditions());
        problems(policy, before, status.getConditions());
        agents(policy, result);
        // a moment reported stays open until its all-clear: through a spell Oversubscribed too, and after a restart
        // as the status last written says
        boolean open = entry.overReported()
                || oversubscribed(before, Conditions.TRUE, Conditions.REASON_LIVE_OVER_BUDGET);
        boolean isLiveOver = oversubscribed(status.getConditions(), Conditions.TRUE,
                Conditions.REASON_LIVE_OVER_BUDGET);
        String clear = open && !isLiveOver ? allClear(status, result.atDefaultConnections()) : null;
        entry.overReported(isLiveOver || open && clear == null);
        if (clear != null) {
            normal(policy, LIVE_WITHIN_BUDGET, clear);
        }
    }

    /**
     * One Warning for the sizes written in this pass whose rollout may take the policy past its budget while it rolls
     * (a prediction: the target's message says it as long as it rolls); once, with the write, not on every pass.
     */
    private void transitions(PoolPolicy policy, List<TargetOutcome> written) {
        String message = transitionWarning(written);
        // the same lower size written again (the agent added, a budget recorded) is the same warning: once
        if (message != null && !memory.of(policy).transitionWarned(message)) {
            emit(policy, "Warning", ROLLOUT_MAY_EXCEED_BUDGET, message);
        }
    }

    /** That Warning's message: the first such size's, and how many more; null where there is none. */
    static String transitionWarning(List<TargetOutcome> written) {
        var said = written.stream().map(TargetOutcome::transition).filter(Objects::nonNull).toList();
        return said.isEmpty() ? null : said.get(0) + (said.size() == 1 ? ""
                : " (and " + (said.size() - 1) + " more written in this pass: see status.targets)");
    }

    /**
     * The all-clear of a moment over the budget, or null: only when the status says the pods are within the budget
     * (Oversubscribed=False, WithinBudget) and the count it states is within it. Not when the reason moved to
     * Oversubscribed (the plan does not fit: the pods are not within the budget for that), nor when the policy stopped
     * planning, nor when the pods may open any number (issue 53: "the pods hold 18 of 10 connections now: within the
     * budget again" was sent as the reason moved). {@code atDefault}: of the count, what pods not sized yet may open.
     */
    static String allClear(PoolPolicyStatus status, long atDefault) {
        Long live = status.getLiveConnections();
        Long budget = status.getBudget() == null ? null : status.getBudget().getConnections();
        if (!oversubscribed(status.getConditions(), Conditions.FALSE, Conditions.REASON_WITHIN_BUDGET)
                || live == null || budget == null || live > budget) {
            return null;
        }
        // the count status shows, in the words status uses for it
        return Holding.words(live, atDefault, 0, false, " of " + budget + " connections now", null)
                + ": within the budget again";
    }

    private static boolean oversubscribed(List<Condition> conditions, String status, String reason) {
        return conditions != null && conditions.stream().anyMatch(c -> Conditions.OVERSUBSCRIBED.equals(c.getType())
                && status.equals(c.getStatus()) && reason.equals(c.getReason()));
    }

    /** One Warning for each problem condition that appears or changes (by reason, for the counts that move). */
    private void problems(PoolPolicy policy, List<Condition> before, List<Condition> now) {
        Set<String> reasons = new HashSet<>();
        for (Condition c : now) {
            boolean problem = Conditions.READY.equals(c.getType()) ? Conditions.FALSE.equals(c.getStatus())
                    : !Conditions.ROLLOUT_IN_PROGRESS.equals(c.getType()) && Conditions.TRUE.equals(c.getStatus());
            // A live over-budget moment's message moves with every pod: one Event when it starts, one when it ends.
            // So does the database's own count (spec.database.observe).
            boolean byReasonOnly = Conditions.REASON_LIVE_OVER_BUDGET.equals(c.getReason())
                    || Conditions.REASON_CONNECTIONS_OVER_BUDGET.equals(c.getReason());
            boolean changed = before.stream().noneMatch(b -> b.getType().equals(c.getType())
                    && b.getStatus().equals(c.getStatus()) && Objects.equals(b.getReason(), c.getReason())
                    && (byReasonOnly || Objects.equals(b.getMessage(), c.getMessage())));
            if (problem && changed && reasons.add(c.getReason())) {
                emit(policy, "Warning", c.getReason(), c.getMessage());
            }
        }
    }

    /**
     * One Warning for each pod's live-resize agent that reports a problem it did not report before (no pool found, a
     * pool it cannot resize): such a pod takes new sizes only by rollouts, which status says, and the Event names it
     * as soon as its app is up rather than at the next size change.
     */
    private void agents(PoolPolicy policy, PassResult result) {
        Set<String> now = new HashSet<>();
        for (TargetOutcome t : result.targets()) {
            if (t.resize() != null && t.resize().agentProblems() != null) {
                t.resize().agentProblems().forEach(p -> now.add(t.kind() + "/" + t.name() + ": pod " + p));
            }
        }
        Set<String> reported = memory.of(policy).agentProblems(now);
        // a restarted process starts from what the status it wrote last shows, so a standing problem is not said again
        Set<String> before = reported != null ? reported : shownInStatus(policy);
        now.stream().filter(p -> !before.contains(p)).sorted().limit(WRITES_ONE_BY_ONE)
                .forEach(p -> emit(policy, "Warning", AGENT_PROBLEM, p + "; new sizes reach that pod only by a "
                        + "rollout (after spec.injection.liveDeadlineSeconds) until its agent can size its pools"));
    }

    /** The agents' lines the policy's status shows, as {@link #agents} names them. */
    private static Set<String> shownInStatus(PoolPolicy policy) {
        Set<String> shown = new HashSet<>();
        if (policy.getStatus() != null && policy.getStatus().getTargets() != null) {
            for (var t : policy.getStatus().getTargets()) {
                if (t.getAgents() != null) {
                    t.getAgents().forEach(a -> shown.add(t.getKind() + "/" + t.getName() + ": pod " + a));
                }
            }
        }
        return shown;
    }

    /** A failed pass: one Warning when its message first appears (not on every retry). */
    public void reportFailure(PoolPolicy policy, List<Condition> conditions) {
        List<Condition> before = memory.lastReported(policy);
        Condition ready = conditions.stream().filter(c -> Conditions.READY.equals(c.getType())).findFirst()
                .orElseThrow();
        boolean same = before != null && before.stream().anyMatch(b -> Conditions.READY.equals(b.getType())
                && Objects.equals(b.getReason(), ready.getReason())
                && Objects.equals(b.getMessage(), ready.getMessage()));
        memory.of(policy).reported(conditions);
        if (!same) {
            emit(policy, "Warning", ready.getReason(), ready.getMessage());
        }
    }

    /** An Event of {@code type} (Normal, Warning) said from outside a pass (the ghosts found after a database read). */
    public void say(PoolPolicy policy, String type, String reason, String message) {
        emit(policy, type, reason, message);
    }

    public void normal(PoolPolicy policy, String reason, String message) {
        emit(policy, "Normal", reason, message);
    }

    private void emit(PoolPolicy policy, String type, String reason, String message) {
        var meta = policy.getMetadata();
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        var event = new EventBuilder()
                .withNewMetadata()
                .withName(meta.getName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()))
                .withNamespace(meta.getNamespace()).endMetadata()
                .withNewInvolvedObject().withApiVersion(policy.getApiVersion()).withKind(policy.getKind())
                .withName(meta.getName()).withNamespace(meta.getNamespace()).withUid(meta.getUid()).endInvolvedObject()
                .withType(type).withReason(reason)
                .withMessage(message.length() > 1000 ? message.substring(0, 1000) + "…" : message)
                .withNewSource().withComponent(COMPONENT).endSource()
                .withReportingComponent(COMPONENT).withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .build();
        sender.execute(() -> {
            try {
                client.v1().events().inNamespace(meta.getNamespace()).resource(event).create();
            } catch (KubernetesClientException e) {
                // Events are best effort, as client-go's recorder makes them: one that cannot be recorded
                // (a terminating namespace, a throttled API server) must not fail the reconcile.
                LOG.warnf("could not record event %s on PoolPolicy %s/%s: %s", reason, meta.getNamespace(),
                        meta.getName(), e.getMessage());
            } catch (IllegalStateException e) {
                // The operator is stopping: its HTTP client was closed with Events still queued. They are lost as
                // client-go's are on shutdown; a stack trace from this thread would only alarm whoever reads the log.
                // Any other IllegalStateException is not this case and goes on.
                if (!client.getHttpClient().isClosed()) {
                    throw e;
                }
                LOG.debugf("event %s on PoolPolicy %s/%s not sent, the operator is stopping: %s", reason,
                        meta.getNamespace(), meta.getName(), e.getMessage());
            }
        });
    }
}
