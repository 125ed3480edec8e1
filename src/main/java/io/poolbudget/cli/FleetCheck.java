package io.poolbudget.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.poolbudget.sizing.Allocation;
import io.poolbudget.sizing.TargetAllocation;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether the user's fleet can use a budget: the plan for the PoolPolicies and workloads given (as to {@code plan}),
 * with every policy's and DatabaseBudget's {@code database} replaced by {@code {budget: B}}. When a plan would be
 * Oversubscribed it says so and what would fit: the budget the minimums need, {@code maxSurge: 0} on the Deployments
 * that surge, or fewer pods. When it fits, it names targets left with a pool of one because of the rollout reserve.
 */
final class FleetCheck {
    private FleetCheck() {}

    /** @return the lines to print; {@code fits[0]} tells whether every plan fits */
    static List<String> check(List<Manifests.Document> documents, int budget, PrintStream err, String sources,
            boolean[] fits) throws Manifests.BadInput {
        var results = PlanCommand.plan(withBudget(documents, budget), err, sources);
        List<String> lines = new ArrayList<>();
        fits[0] = true;
        for (var r : results) {
            Allocation a = r.plan().allocation();
            String name = r.policy().getMetadata().getName();
            if (a.verdict() == Allocation.Verdict.FITS) {
                lines.add(String.format(Locale.ROOT, "PoolPolicy %s fits a budget of %d: %d connections allocated.",
                        name, budget, a.allocated()));
                lines.addAll(reserveAdvice(a));
                continue;
            }
            fits[0] = false;
            lines.add(String.format(Locale.ROOT, "PoolPolicy %s would be OVERSUBSCRIBED at a budget of %d: its %d peak "
                    + "pods at their minimum pool need %d connections.", name, budget, peakPods(a), a.allocated()));
            lines.add(String.format(Locale.ROOT, "  What would fit: a budget of %d (more than the knee: the database "
                    + "serves it less well), or fewer peak pods (fewer replicas or a lower HPA maximum)%s.",
                    a.allocated(), withoutSurgeFits(documents, budget, err, sources, name)
                            ? ", or maxSurge: 0 on its Deployments (with maxUnavailable of 1 or more), which fits"
                            : ""));
        }
        return lines;
    }

    /** Targets at pool size 1 that the rollout reserve (surge and terminating pods) keeps there. */
    static List<String> reserveAdvice(Allocation a) {
        List<String> lines = new ArrayList<>();
        for (TargetAllocation t : a.targets()) {
            String advice = t.reserveAdvice(a.budget().connections());
            if (advice != null) {
                lines.add("  note: " + advice);
            }
        }
        return lines;
    }

    private static long peakPods(Allocation a) {
        return a.targets().stream().mapToLong(t -> t.peak().total()).sum();
    }

    private static boolean withoutSurgeFits(List<Manifests.Document> documents, int budget, PrintStream err,
            String sources, String policy) throws Manifests.BadInput {
        List<Manifests.Document> noSurge = new ArrayList<>();
        for (var d : withBudget(documents, budget)) {
            if ("Deployment".equals(d.kind()) && d.node() instanceof ObjectNode node
                    && !"Recreate".equals(node.path("spec").path("strategy").path("type").asText())) {
                ObjectNode rolling = node.with("spec").with("strategy").with("rollingUpdate");
                rolling.put("maxSurge", 0);
                var unavailable = rolling.path("maxUnavailable");
                if (unavailable.isMissingNode() || unavailable.asText().equals("0")
                        || unavailable.asText().equals("0%")) {
                    rolling.put("maxUnavailable", 1);
                }
            }
            noSurge.add(d);
        }
        return PlanCommand.plan(noSurge, new PrintStream(PrintStream.nullOutputStream()), sources).stream()
                .filter(r -> r.policy().getMetadata().getName().equals(policy))
                .allMatch(r -> r.plan().allocation().verdict() == Allocation.Verdict.FITS);
    }

    /** Copies of the documents with every PoolPolicy's and DatabaseBudget's database set to this budget. */
    static List<Manifests.Document> withBudget(List<Manifests.Document> documents, int budget) {
        List<Manifests.Document> copies = new ArrayList<>();
        for (var d : documents) {
            var node = d.node().deepCopy();
            if (("PoolPolicy".equals(d.kind()) || "DatabaseBudget".equals(d.kind()))
                    && node.path("spec").path("database") instanceof ObjectNode database) {
                ObjectNode replaced = JsonNodeFactory.instance.objectNode();
                if (database.has("name")) {
                    replaced.set("name", database.get("name"));
                }
                replaced.put("budget", budget);
                ((ObjectNode) node.get("spec")).set("database", replaced);
            }
            copies.add(new Manifests.Document(d.source(), d.index(), node));
        }
        return copies;
    }
}
