package io.poolbudget.cli;

import io.fabric8.kubernetes.api.model.Namespace;
import io.poolbudget.api.v1alpha1.DatabaseBudget;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.planning.SharedBudgets;
import io.poolbudget.planning.InvalidPolicyException;
import io.poolbudget.planning.PolicyPlanner;
import io.poolbudget.sizing.Allocation;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code plan}: the allocation for PoolPolicies and their workloads, from manifests, with no cluster.
 * Exit codes: 0 every policy fits, 3 one is oversubscribed, 2 bad input.
 */
public final class PlanCommand {
    public static final int FITS = 0;
    public static final int BAD_INPUT = 2;
    public static final int OVERSUBSCRIBED = 3;

    static final String USAGE = """
            Usage: plan [-f FILE]... [-o table|json]
                   plan --presets

            Prints the pool sizes the operator would apply, from a PoolPolicy and the Deployment,
            StatefulSet, Argo Rollout, CronJob, HorizontalPodAutoscaler (or KEDA ScaledObject) manifests its targets name.
            No cluster is needed.

              -f, --filename FILE   a YAML or JSON file, several documents allowed; - for stdin
                                    (repeatable; stdin when none is given)
              -o, --output FORMAT   table (default) or json
                  --presets         what each spec.injection.preset's app reads, and holds without it
              -h, --help            this text

            Exit codes: 0 every policy fits its budget, 3 a policy is oversubscribed, 2 bad input.
            """;

    private PlanCommand() {}

    public static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
        List<String> files = new ArrayList<>();
        String format = "table";
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-h") || arg.equals("--help")) {
                out.print(USAGE);
                return FITS;
            } else if (arg.equals("--presets")) {
                out.print(PresetTable.markdown());
                return FITS;
            } else if ((arg.equals("-f") || arg.equals("--filename") || arg.equals("-o") || arg.equals("--output"))
                    && i + 1 < args.length) {
                if (arg.startsWith("-f") || arg.equals("--filename")) {
                    files.add(args[++i]);
                } else {
                    format = args[++i];
                }
            } else if (arg.startsWith("--filename=") || arg.startsWith("--output=")) {
                String value = arg.substring(arg.indexOf('=') + 1);
                if (arg.startsWith("--filename=")) {
                    files.add(value);
                } else {
                    format = value;
                }
            } else {
                err.println("plan: unknown or incomplete argument '" + arg + "'\n");
                err.print(USAGE);
                return BAD_INPUT;
            }
        }
        if (!format.equals("table") && !format.equals("json")) {
            err.println("plan: -o must be table or json, not '" + format + "'");
            return BAD_INPUT;
        }
        try {
            List<PlanOutput.PolicyResult> results = plan(files.isEmpty() ? List.of("-") : files, stdin, err);
            out.print(format.equals("json") ? PlanOutput.json(results) : PlanOutput.table(results));
            return results.stream().anyMatch(r -> r.plan().allocation().verdict() == Allocation.Verdict.OVERSUBSCRIBED)
                    ? OVERSUBSCRIBED : FITS;
        } catch (Manifests.BadInput e) {
            err.println("plan: " + e.getMessage());
            return BAD_INPUT;
        }
    }

    private static List<PlanOutput.PolicyResult> plan(List<String> sources, InputStream stdin, PrintStream err)
            throws Manifests.BadInput {
        return plan(read(sources, stdin), err, String.join(", ", sources));
    }

    static List<Manifests.Document> read(List<String> sources, InputStream stdin) throws Manifests.BadInput {
        List<Manifests.Document> documents = new ArrayList<>();
        for (String source : sources) {
            documents.addAll(Manifests.read(source, stdin));
        }
        return documents;
    }

    /**
     * What the operator would report as a target's problem from its template alone (the containers it names, a
     * variable set through valueFrom, mode EnvFrom's references): the same checks, from the manifests.
     */
    static List<String> templateProblems(PoolPolicy policy, PolicyPlanner.PolicyPlan plan, ManifestCatalog catalog) {
        var spec = policy.getSpec().getInjection();
        List<String> problems = new ArrayList<>();
        for (var r : spec == null ? List.<PolicyPlanner.ResolvedTarget>of() : plan.targets()) {
            var w = r.workload();
            var template = catalog.template(w);
            if (template == null || template.getSpec() == null || template.getSpec().getContainers() == null) {
                continue;
            }
            String problem;
            try {
                var containers = io.poolbudget.decide.InjectionReads.containers(spec, template.getSpec());
                problem = io.poolbudget.decide.InjectionReads.foreignValueFrom(io.poolbudget.planning.Owner.of(policy),
                        w.kind(), w.name(), spec, template.getSpec(), containers);
            } catch (IllegalArgumentException e) {
                problem = e.getMessage();
            }
            if (problem != null) {
                problems.add(w.kind() + "/" + w.name() + ": " + problem);
            }
        }
        return problems;
    }

    /**
     * Resize mode Live: which targets take new sizes without a restart and what the operator adds to their pods, or
     * why one cannot (it is then sized by rollouts), in the operator's words.
     */
    static List<String> liveNotes(PoolPolicy policy, PolicyPlanner.PolicyPlan plan, ManifestCatalog catalog) {
        var spec = policy.getSpec().getInjection();
        List<String> notes = new ArrayList<>();
        if (io.poolbudget.api.v1alpha1.ResizeMode.of(spec) != io.poolbudget.api.v1alpha1.ResizeMode.Live) {
            return notes;
        }
        var owner = io.poolbudget.planning.Owner.of(policy);
        for (var r : plan.targets()) {
            var w = r.workload();
            var template = catalog.template(w);
            if (template == null || template.getSpec() == null || template.getSpec().getContainers() == null) {
                continue;
            }
            try {
                var containers = io.poolbudget.decide.InjectionReads.containers(spec, template.getSpec());
                String cannot = io.poolbudget.decide.LiveResize.cannotAdd(template.getSpec(), containers, owner);
                notes.add(w.kind() + "/" + w.name() + ": " + (cannot != null
                        ? "resize Live unavailable, sized by rollouts: " + cannot
                        : "resize Live: its running pods take new sizes without a restart; the first write adds the "
                                + "agent (init container poolbudget-agent, volumes poolbudget-agent and "
                                + "poolbudget-live-" + owner.key() + ", the -javaagent option in "
                                + String.join(", ", containers.stream()
                                        .map(c -> c + "'s "
                                                + io.poolbudget.decide.LiveResize.optionsVariable(template.getSpec(), c,
                                                        owner))
                                        .toList())
                                + ") and rolls its pods once"));
            } catch (IllegalArgumentException e) {
                // reported by templateProblems
            }
        }
        return notes;
    }

    /** The plan for every PoolPolicy among these documents, as the operator would make it. */
    static List<PlanOutput.PolicyResult> plan(List<Manifests.Document> documents, PrintStream err, String sources)
            throws Manifests.BadInput {
        var catalog = ManifestCatalog.of(documents);
        var shared = sharedBudgets(documents, err);
        List<PlanOutput.PolicyResult> results = new ArrayList<>();
        for (var doc : documents) {
            if (!"PoolPolicy".equals(doc.kind())) {
                continue;
            }
            PoolPolicy policy = Manifests.bind(doc, PoolPolicy.class, Manifests.STRICT);
            try {
                var plan = PolicyPlanner.plan(policy, catalog, shared);
                for (var m : plan.missing()) {
                    if (m.name() != null) {
                        throw new Manifests.BadInput(doc.where() + ": " + m.field() + " names " + m.kind() + "/"
                                + m.name() + ", which is not in the input: add its manifest with -f");
                    }
                    // as the operator warns: a selector that matches nothing sizes nothing
                    err.println("plan: warning: " + doc.where() + ": " + m.problem());
                }
                templateProblems(policy, plan, catalog).forEach(p -> err.println("plan: warning: " + doc.where() + ": "
                        + p));
                liveNotes(policy, plan, catalog).forEach(p -> err.println("plan: note: " + doc.where() + ": " + p));
                results.add(new PlanOutput.PolicyResult(policy, plan,
                        io.poolbudget.decide.TransitionNotes.fromManifests(policy, plan, catalog::template)));
            } catch (InvalidPolicyException e) {
                throw new Manifests.BadInput(doc.where() + ": " + e.getMessage());
            }
        }
        if (results.isEmpty()) {
            throw new Manifests.BadInput(
                    "no PoolPolicy in the input (" + sources + "): give one with -f, next to the workloads it names");
        }
        return results;
    }

    /**
     * DatabaseBudgets in the input, shared by every PoolPolicy of the input that references one, as the operator
     * shares them; Namespace manifests give the labels its namespaceSelector is matched against.
     */
    private static SharedBudgets sharedBudgets(List<Manifests.Document> documents, PrintStream err)
            throws Manifests.BadInput {
        List<DatabaseBudget> budgets = new ArrayList<>();
        List<Namespace> namespaces = new ArrayList<>();
        List<PoolPolicy> policies = new ArrayList<>();
        for (var doc : documents) {
            switch (doc.kind()) {
                case "DatabaseBudget" -> budgets.add(Manifests.bind(doc, DatabaseBudget.class, Manifests.STRICT));
                case "Namespace" -> namespaces.add(Manifests.bind(doc, Namespace.class, Manifests.LENIENT));
                case "PoolPolicy" -> policies.add(Manifests.bind(doc, PoolPolicy.class, Manifests.STRICT));
                default -> {
                }
            }
        }
        if (!budgets.isEmpty() && namespaces.isEmpty()) {
            err.println("plan: note: no Namespace in the input: every namespace is taken as selected by the "
                    + "DatabaseBudgets' namespaceSelector (give the Namespace manifests with -f to check it)");
        }
        return new SharedBudgets(budgets, namespaces, policies, !namespaces.isEmpty());
    }
}
