package io.poolbudget.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the operator really called, from the API server's audit log (hack/cluster/up.sh records the
 * requests of poolbudget-system's service accounts), against what the chart's roles grant. A
 * permission is written "group/resource verb", the core group as "".
 */
record RbacAudit(Set<String> used, Set<String> forbidden) {
    static final Path LOG = Path.of(System.getProperty("poolbudget.audit.log",
            "build/kwok/clusters/poolbudget-test/logs/audit.log"));
    static final String USER = "system:serviceaccount:" + Installation.NAMESPACE + ":poolbudget";

    /**
     * Reads the log; refusals between {@code quietFrom} and {@code quietTo} are left out: while an
     * install is being removed its pods outlive their Role for a few seconds, and their last lease
     * renewals are refused, which says nothing about the chart.
     */
    static RbacAudit read(Instant quietFrom, Instant quietTo) {
        var mapper = new ObjectMapper();
        Set<String> used = new TreeSet<>();
        Set<String> forbidden = new TreeSet<>();
        try (var lines = Files.lines(LOG)) {
            for (String line : (Iterable<String>) lines::iterator) {
                JsonNode e = mapper.readTree(line);
                if (!USER.equals(e.path("user").path("username").asText())) {
                    continue;
                }
                JsonNode ref = e.path("objectRef");
                String group = ref.path("apiGroup").asText("");
                // Every client may review its own rules; JOSDK does so before electing a leader. Discovery (the
                // operator asks whether Argo Rollouts' API is served) reads no resource: every authenticated user may,
                // through the cluster's own system:discovery role, not the chart's.
                if (group.equals("authorization.k8s.io") || ref.path("resource").asText("").isEmpty()) {
                    continue;
                }
                String resource = ref.path("resource").asText() + (ref.hasNonNull("subresource")
                        ? "/" + ref.path("subresource").asText() : "");
                String permission = group + "/" + resource + " " + e.path("verb").asText();
                String decision = e.path("annotations").path("authorization.k8s.io/decision").asText();
                int code = e.path("responseStatus").path("code").asInt();
                // A server-side apply that creates its object is authorised as a create too, inside the
                // handler: the patch is "allow"ed, the create shows only as the response's 403 (or 201).
                // Other 403s are not RBAC's (an Event into a namespace being deleted, say).
                boolean refused = decision.equals("forbid") || code == 403
                        && e.path("responseStatus").path("message").asText().contains("cannot ");
                Instant at = Instant.parse(e.path("requestReceivedTimestamp").asText(Instant.EPOCH.toString()));
                if (refused && quietFrom != null && !at.isBefore(quietFrom) && !at.isAfter(quietTo)) {
                    continue;
                }
                (refused ? forbidden : used).add(permission);
                if (e.path("verb").asText().equals("patch") && code == 201) {
                    used.add(group + "/" + resource + " create");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading the audit log " + LOG, e);
        }
        return new RbacAudit(used, forbidden);
    }

    /**
     * What is wrong with the chart's grants against these calls: calls refused (a rule the operator
     * needs is missing) and grants never called (a rule it does not need). Two grants are for calls a run
     * may not make: JOSDK checks for update on the lease before electing, though the elector renews by
     * patch; and it reads a policy by GET only when removing its finalizer meets a conflict (409), as
     * when a policy is deleted while its status is being written: whether a run meets one is timing.
     */
    List<String> problems(Set<String> granted) {
        var problems = new java.util.ArrayList<String>();
        forbidden.forEach(p -> problems.add("refused by the API server, so missing from the chart: " + p));
        used.stream().filter(p -> !granted.contains(p)).forEach(p -> problems.add("called but not granted: " + p));
        granted.stream().filter(p -> !used.contains(p) && !SOMETIMES_CALLED.contains(p))
                .forEach(p -> problems.add("granted but never called: " + p));
        return problems;
    }

    /** Grants for calls that depend on timing, see {@link #problems}. */
    static final Set<String> SOMETIMES_CALLED = Set.of("coordination.k8s.io/leases update",
            "poolbudget.io/poolpolicies get",
            // written only where a policy targets one; Rollouts are watched only where Argo Rollouts' API is served
            "batch/cronjobs patch", "argoproj.io/rollouts patch", "argoproj.io/rollouts list",
            "argoproj.io/rollouts watch");

    /**
     * Every group/resource verb the rules of these rendered documents grant the operator: the roles aggregated into
     * the cluster's edit and view roles are for people, not for the operator, and are left out.
     */
    static Set<String> granted(List<JsonNode> docs) {
        Set<String> granted = new TreeSet<>();
        for (JsonNode doc : docs) {
            var labels = doc.path("metadata").path("labels");
            if (labels.has("rbac.authorization.k8s.io/aggregate-to-edit")
                    || labels.has("rbac.authorization.k8s.io/aggregate-to-view")
                    || labels.has("rbac.authorization.k8s.io/aggregate-to-admin")) {
                continue;
            }
            for (JsonNode rule : doc.path("rules")) {
                for (JsonNode g : rule.path("apiGroups")) {
                    for (JsonNode r : rule.path("resources")) {
                        for (JsonNode v : rule.path("verbs")) {
                            granted.add(g.asText() + "/" + r.asText() + " " + v.asText());
                        }
                    }
                }
            }
        }
        return granted;
    }
}
