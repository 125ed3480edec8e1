package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 41, found 3: a pass that fails unexpectedly is Ready=False with reason ReconcileError, one Warning Event, and
 * a count in poolbudget_reconcile_errors_total, and it clears once a pass gets through. The failure is real: the API
 * server refuses the operator's write with 413 (a ValidatingAdmissionPolicy of this test's), an answer the operator
 * does not turn into a target problem, so the pass throws and JOSDK retries it with back-off.
 */
class ReconcileErrorIT extends OperatorTestBase {
    private final List<HasMetadata> refusals = new ArrayList<>();

    @BeforeAll
    static void start() {
        startOperator("reconcile-error", "0s");
    }

    @AfterEach
    void allowWrites() {
        refusals.forEach(o -> client.resource(o).delete());
        refusals.clear();
    }

    /** Makes the API server refuse every update of Deployment {@code name} in this test's namespace with 413. */
    private void refuseUpdatesOf(String name) {
        String policy = ns + "-refuse-" + name;
        for (String yaml : List.of("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicy
                metadata: {name: %1$s}
                spec:
                  failurePolicy: Fail
                  matchConstraints:
                    resourceRules:
                    - {apiGroups: [apps], apiVersions: [v1], operations: [UPDATE], resources: [deployments]}
                  validations:
                  - expression: "object.metadata.name != '%2$s'"
                    reason: RequestEntityTooLarge
                    message: "refused by ReconcileErrorIT"
                """, """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingAdmissionPolicyBinding
                metadata: {name: %1$s}
                spec:
                  policyName: %1$s
                  validationActions: [Deny]
                  matchResources:
                    namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: %3$s}}
                """)) {
            var object = Serialization.unmarshal(yaml.formatted(policy, name, ns), GenericKubernetesResource.class);
            refusals.add(client.resource(object).serverSideApply());
        }
    }

    private static Predicate<PoolPolicy> ready(String status, String reason) {
        return p -> p.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType())
                && status.equals(c.getStatus()) && reason.equals(c.getReason()));
    }

    private long reconcileErrors() throws Exception {
        var body = Scrape.HTTP
                .send(HttpRequest.newBuilder(URI.create("http://localhost:" + operator.port()
                        + "/q/metrics")).build(), HttpResponse.BodyHandlers.ofString())
                .body();
        var m = Pattern.compile("(?m)^poolbudget_reconcile_errors_total(?:\\{[^}]*\\})? ([0-9.eE+]+)$").matcher(body);
        return m.find() ? (long) Double.parseDouble(m.group(1)) : 0;
    }

    @Test
    void aPassThatFailsUnexpectedlyIsReportedAndClearsOnceAPassGetsThrough() throws Exception {
        create(deployment("web", 2, Map.of()));
        awaitRolledOut("web");
        long before = reconcileErrors();
        // the API server admits a write only once the policy exists: wait for the refusal to be in force
        refuseUpdatesOf("web");
        org.awaitility.Awaitility.await("the refusal in force").atMost(java.time.Duration.ofSeconds(30)).until(() -> {
            try {
                editDeployment("web", d -> {
                    var annotations = new java.util.HashMap<>(d.getMetadata().getAnnotations() == null
                            ? Map.<String, String>of() : d.getMetadata().getAnnotations());
                    annotations.put("it-probe", Long.toString(System.nanoTime()));
                    d.getMetadata().setAnnotations(annotations);
                    return d;
                });
                return false;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                return e.getCode() == 413;
            }
        });
        applyPolicy(WEB_POLICY.formatted(8));
        var failing = awaitPolicy("db", ready("False", "ReconcileError"));
        assertThat(failing.getStatus().getConditions()).filteredOn(c -> c.getType().equals("Ready")).singleElement()
                .satisfies(c -> assertThat(c.getMessage()).isEqualTo("the operator could not finish a pass over this "
                        + "policy: the API server answered 413 RequestEntityTooLarge: deployments.apps \"web\" is "
                        + "forbidden: ValidatingAdmissionPolicy '" + ns + "-refuse-web' with binding '" + ns
                        + "-refuse-web' denied request: refused by ReconcileErrorIT. It retries with back-off; if this "
                        + "stays, check the objects named here and the operator's log")
                        .endsWith("It retries with back-off; if this stays, check the objects named here and the "
                                + "operator's log"));
        awaitEvents(events -> assertThat(events).filteredOn(e -> "ReconcileError".equals(e.getReason()))
                .singleElement().satisfies(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getInvolvedObject().getName()).isEqualTo("db");
                }));
        assertThat(reconcileErrors()).as("poolbudget_reconcile_errors_total").isGreaterThan(before);

        // the refusal is lifted: the next retry gets through, and the error is gone from the status
        allowWrites();
        var healed = awaitPolicy("db", targetState("web", "Applied", 4).and(ready("True", "Reconciled")), 120);
        assertThat(healed.getStatus().getConditions()).noneMatch(c -> "ReconcileError".equals(c.getReason()));
        // one Warning for the episode, not one per retry
        assertThat(client.v1().events().inNamespace(ns).list().getItems())
                .filteredOn(e -> "ReconcileError".equals(e.getReason())).hasSize(1);
    }
}
