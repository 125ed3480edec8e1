package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.poolbudget.install.ChartTools;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, item 1: the chart's ValidatingAdmissionPolicy, as the API server enforces it. A ServiceAccount with
 * rights on PoolPolicies only may not create one that writes (the operator would patch Deployments for it); with
 * patch on Deployments it may; a dry run needs no patch right. The policy and its binding come from `helm template`
 * of the chart, applied as an install would.
 */
@ClusterTest
class AdmissionPolicyIT {
    private static KubernetesClient admin;
    private static final List<HasMetadata> installed = new ArrayList<>();
    private static String ns;

    @BeforeAll
    static void install() {
        admin = TestCluster.of(AdmissionPolicyIT.class).client();
        ClusterFixture.installCrds(admin);
        for (JsonNode doc : ChartTools.render("poolbudget-system")) {
            if (doc.path("kind").asText().startsWith("ValidatingAdmissionPolicy")
                    && doc.path("metadata").path("name").asText().endsWith("-writers-may-patch")) {
                var object = Serialization.unmarshal(doc.toString(), GenericKubernetesResource.class);
                installed.add(admin.resource(object).serverSideApply());
            }
        }
        assertThat(installed).extracting(HasMetadata::getKind)
                .containsExactly("ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding");
        ns = ClusterFixture.createNamespace(admin, "it-admission");
        Tenant.create(admin, ns);
    }

    @AfterAll
    static void uninstall() {
        installed.forEach(o -> admin.resource(o).delete());
        if (ns != null) {
            ClusterFixture.deleteNamespaces(admin, List.of(ns));
        }
    }

    private static GenericKubernetesResource policy(String name, String extra) {
        return Serialization.unmarshal("""
                apiVersion: poolbudget.io/v1alpha1
                kind: PoolPolicy
                metadata: {name: %s}
                spec:
                  database: {cores: 2}
                  injection: {preset: hikari-env}
                  targets: [{name: web}%s]
                %s""".formatted(name, extra.contains("StatefulSet") ? ", {name: db, kind: StatefulSet}" : "",
                extra.contains("dryRun") ? "  dryRun: true\n" : ""), GenericKubernetesResource.class);
    }

    private static KubernetesClientException refused(KubernetesClient c, GenericKubernetesResource p) {
        return catchThrowableOfType(KubernetesClientException.class, () -> c.resource(p).inNamespace(ns).create());
    }

    @Test
    @SuppressWarnings("unchecked")
    void onlyWhoMayPatchTheTargetsMayMakeThePolicyWriteThem() {
        try (var tenant = Tenant.client(admin, ns)) {
            // a freshly created policy takes a moment to be enforced: wait for the first refusal, removing what got
            // in before it was (else the next try fails as AlreadyExists, not as the refusal)
            Awaitility.await("the admission policy enforced").atMost(30, TimeUnit.SECONDS).until(() -> {
                var first = refused(tenant, policy("writes", ""));
                if (first == null) {
                    admin.resource(policy("writes", "")).inNamespace(ns).withTimeout(10, TimeUnit.SECONDS).delete();
                }
                return first != null && first.getCode() == 403;
            });
            var e = refused(tenant, policy("writes", ""));
            System.out.println("AdmissionPolicyIT: " + e.getStatus().getMessage());
            assertThat(e.getCode()).isEqualTo(403);
            assertThat(e.getStatus().getMessage()).contains(Tenant.refusal(ns, "deployments"));
            assertThat(tenant.resource(policy("preview", "dryRun")).inNamespace(ns).create().getMetadata().getName())
                    .as("a dry run writes nothing").isEqualTo("preview");
            var preview = tenant.genericKubernetesResources("poolbudget.io/v1alpha1", "PoolPolicy").inNamespace(ns)
                    .withName("preview");
            preview.edit(p -> {
                p.getMetadata().setLabels(java.util.Map.of("team", "a"));
                return p;
            });
            assertThat(catchThrowableOfType(KubernetesClientException.class, () -> preview.edit(p -> {
                ((java.util.Map<String, Object>) p.getAdditionalProperties().get("spec")).put("dryRun", false);
                return p;
            })).getCode()).as("turning the dry run off makes it write: refused too").isEqualTo(403);

            Tenant.grantPatch(admin, ns, "deployments");
            Awaitility.await("the new right seen").atMost(30, TimeUnit.SECONDS).ignoreExceptions()
                    .until(() -> tenant.resource(policy("writes", "")).inNamespace(ns).create() != null);
            assertThat(refused(tenant, policy("both", "StatefulSet")).getStatus().getMessage())
                    .as("a StatefulSet target needs patch on StatefulSets too")
                    .contains("may not patch apps/statefulsets");
        }
    }
}
