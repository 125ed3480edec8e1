package io.poolbudget.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.planning.PolicyPlanner;
import io.poolbudget.sizing.Allocation;
import io.poolbudget.sizing.TargetAllocation;
import io.poolbudget.sizing.TransitionPeaks;
import java.util.List;
import java.util.Locale;

/** Renders plans as a table for people or JSON for tools. */
final class PlanOutput {
    /**
     * {@code transitions}: by target id, where lowering its pool from the size its template carries may take the policy
     * past its budget while it rolls, said as the operator says it.
     */
    record PolicyResult(PoolPolicy policy, PolicyPlanner.PolicyPlan plan,
            java.util.Map<String, TransitionPeaks.Note> transitions) {}

    private static final String ROW = "%-32s %-16s %9s %9s %6s %9s %11s%n";

    private PlanOutput() {}

    /**
     * A pooler tier, said: for the apps behind a pooler, that they count against its clients; for a pooler's own
     * policy, that its targets' pools are server connections and which policies of the plan size their clients.
     */
    private static String tier(PolicyResult r, List<PolicyResult> results) {
        var spec = r.policy().getSpec();
        if (io.poolbudget.planning.PoolerTier.behindPooler(r.policy())) {
            return "tier: clients of pooler Deployment/" + spec.getDatabase().getPooler().getName()
                    + ", counted against the connections it accepts, not against the database";
        }
        if (spec.getInjection() == null || spec.getInjection().getPreset() == null
                || !spec.getInjection().getPreset().pooler()) {
            return null;
        }
        var poolers = r.plan().targets().stream().map(t -> t.workload().name()).collect(
                java.util.stream.Collectors.toSet());
        var clients = results.stream().filter(c -> io.poolbudget.planning.PoolerTier.behindPooler(c.policy())
                && poolers.contains(c.policy().getSpec().getDatabase().getPooler().getName())
                && java.util.Objects.equals(c.policy().getMetadata().getNamespace(),
                        r.policy().getMetadata().getNamespace()))
                .map(c -> "PoolPolicy " + name(c.policy())).toList();
        return "tier: server side of a pooler, its pods' server connections against the database; its clients: "
                + (clients.isEmpty() ? "no policy in this plan sizes them (give them one with spec.database.pooler)"
                        : String.join(", ", clients));
    }

    static String table(List<PolicyResult> results) {
        var out = new StringBuilder();
        for (PolicyResult r : results) {
            Allocation a = r.plan().allocation();
            out.append(a.verdict() == Allocation.Verdict.FITS
                    ? String.format(Locale.ROOT, "PoolPolicy %s: fits, %d of %d connections allocated%n",
                            name(r.policy()), a.allocated(), a.budget().connections())
                    : String.format(Locale.ROOT, "PoolPolicy %s: OVERSUBSCRIBED%s, the minimums alone need %d "
                            + "connections and the budget is %d%n", name(r.policy()),
                            a.budget().connections() == 0 ? ""
                                    : String.format(Locale.ROOT, " %.2f×", a.ratio()),
                            a.allocated(), a.budget().connections()));
            out.append("  ").append(a.budget().explanation()).append('\n');
            String tier = tier(r, results);
            if (tier != null) {
                out.append("  ").append(tier).append('\n');
            }
            if (a.unallocated() > 0 || a.verdict() == Allocation.Verdict.OVERSUBSCRIBED) {
                out.append("  ").append(a.verdict() == Allocation.Verdict.OVERSUBSCRIBED ? "oversubscribed: "
                        : "unallocated " + a.unallocated() + ": ").append(a.unallocatedReason()).append('\n');
            }
            if (a.verdict() == Allocation.Verdict.FITS) {
                FleetCheck.reserveAdvice(a).forEach(line -> out.append(line).append('\n'));
            }
            a.targets().stream().map(t -> t.peak().drainAdvice()).filter(java.util.Objects::nonNull)
                    .forEach(note -> out.append("  note: ").append(note).append('\n'));
            r.transitions().values().forEach(n -> out.append("  transition, from the sizes the templates carry: ")
                    .append(n.text()).append('\n'));
            out.append('\n').append(String.format(Locale.ROOT, ROW, "TARGET", "BASIS", "PEAK PODS", "POOLS/POD",
                    "WEIGHT", "POOL SIZE", "CONNECTIONS"));
            for (TargetAllocation t : a.targets()) {
                out.append(String.format(Locale.ROOT, ROW, t.id(),
                        t.peak().basisReplicas() + " (" + basis(t) + ")", t.peak().total(), t.poolsPerPod(),
                        t.weight(), t.poolSize(), t.connections()));
            }
            out.append(String.format(Locale.ROOT, ROW, "TOTAL", "", "", "", "", "",
                    a.allocated() + " / " + a.budget().connections()));
            out.append(PlanDemand.table(r.policy().getSpec().getAllocation(), a));
            out.append("\nHow each number was reached:\n");
            for (TargetAllocation t : a.targets()) {
                out.append("  ").append(t.id()).append('\n');
                out.append("    ").append(t.peak().explanation()).append('\n');
                out.append("    ").append(t.explanation()).append('\n');
                out.append("    ").append(t.fit().describe(t.peak())).append('\n');
                if (t.strategyCost() != null) {
                    out.append("    ").append(t.strategyCost()).append('\n');
                }
            }
            out.append('\n');
        }
        return out.toString();
    }

    static String json(List<PolicyResult> results) {
        var factory = JsonNodeFactory.instance;
        ArrayNode policies = factory.arrayNode();
        for (PolicyResult r : results) {
            Allocation a = r.plan().allocation();
            ObjectNode p = policies.addObject();
            p.put("name", r.policy().getMetadata().getName());
            p.put("namespace", r.policy().getMetadata().getNamespace());
            p.put("verdict", a.verdict() == Allocation.Verdict.FITS ? "Fits" : "Oversubscribed");
            ObjectNode budget = p.putObject("budget");
            budget.put("connections", a.budget().connections());
            budget.put("term", a.budget().term().name());
            budget.put("explanation", a.budget().explanation());
            p.put("allocated", a.allocated());
            p.put("unallocated", a.unallocated());
            p.put("unallocatedReason", a.unallocatedReason());
            if (a.budget().connections() > 0) { // no ratio to a budget of 0 (JSON has no Infinity)
                p.put("ratio", Math.round(a.ratio() * 1000) / 1000.0);
            }
            var allocation = r.policy().getSpec().getAllocation();
            PlanDemand.json(allocation, p);
            ArrayNode targets = p.putArray("targets");
            for (TargetAllocation t : a.targets()) {
                ObjectNode o = targets.addObject();
                o.put("workload", t.id());
                o.put("basis", basis(t));
                o.put("basisReplicas", t.peak().basisReplicas());
                o.put("surgePods", t.peak().surge());
                o.put("terminatingPods", t.peak().terminating());
                o.put("peakPods", t.peak().total());
                o.put("poolsPerPod", t.poolsPerPod());
                o.put("weight", t.weight());
                o.put("poolSize", t.poolSize());
                o.put("connections", t.connections());
                o.put("replicasThatFit", t.fit().replicas());
                o.put("connectionsLeft", t.fit().left());
                o.put("withoutSurge", t.strategyCost());
                var transition = r.transitions().get(t.id());
                if (transition != null) {
                    o.putObject("transition").put("peak", transition.peak())
                            .put("peakWithoutOverlap", transition.noOverlap()).put("message", transition.text());
                }
                PlanDemand.json(allocation, t, o);
                o.putObject("explanation").put("peakPods", t.peak().explanation()).put("poolSize", t.explanation());
                if (t.peak().drainAdvice() != null) {
                    o.put("note", t.peak().drainAdvice());
                }
            }
        }
        ObjectNode root = factory.objectNode();
        root.set("policies", policies);
        try {
            return Manifests.LENIENT.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String name(PoolPolicy policy) {
        String ns = policy.getMetadata().getNamespace();
        return (ns == null ? "" : ns + "/") + policy.getMetadata().getName();
    }

    private static String basis(TargetAllocation t) {
        return switch (t.peak().basis()) {
            case HPA_MAX -> "HpaMax";
            case CURRENT -> "Current";
            case FIXED -> "Fixed";
        };
    }
}
