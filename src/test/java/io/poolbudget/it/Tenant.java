package io.poolbudget.it;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/** A ServiceAccount "tenant" with rights on PoolPolicies only, and a client that acts as it (impersonation). */
final class Tenant {
    private Tenant() {}

    static void create(KubernetesClient admin, String ns) {
        admin.serviceAccounts().inNamespace(ns)
                .resource(new ServiceAccountBuilder().withNewMetadata().withName("tenant")
                        .endMetadata().build())
                .create();
        grant(admin, ns, "poolpolicies-only", new PolicyRuleBuilder().withApiGroups("poolbudget.io")
                .withResources("poolpolicies").withVerbs("create", "get", "update", "patch").build());
    }

    static void grant(KubernetesClient admin, String ns, String name, PolicyRule rule) {
        admin.rbac().roles().inNamespace(ns).resource(new RoleBuilder().withNewMetadata().withName(name).endMetadata()
                .withRules(rule).build()).create();
        admin.rbac().roleBindings().inNamespace(ns).resource(new RoleBindingBuilder().withNewMetadata().withName(name)
                .endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", name).addNewSubject()
                .withKind("ServiceAccount").withName("tenant").withNamespace(ns).endSubject().build()).create();
    }

    static void grantPatch(KubernetesClient admin, String ns, String resource) {
        grant(admin, ns, "patch-" + resource, new PolicyRuleBuilder().withApiGroups("apps").withResources(resource)
                .withVerbs("patch").build());
    }

    static KubernetesClient client(KubernetesClient admin, String ns) {
        return new KubernetesClientBuilder().withConfig(new ConfigBuilder(admin.getConfiguration())
                .withImpersonateUsername("system:serviceaccount:" + ns + ":tenant")
                .withImpersonateGroups("system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated")
                .build()).build();
    }

    /** The refusal's message for a writing policy in ns whose author may not patch that resource. */
    static String refusal(String ns, String resource) {
        return "a PoolPolicy that writes makes the operator patch its targets, and system:serviceaccount:" + ns
                + ":tenant may not patch apps/" + resource + " in namespace " + ns
                + ": ask for that permission, or set "
                + "spec.dryRun: true";
    }
}
