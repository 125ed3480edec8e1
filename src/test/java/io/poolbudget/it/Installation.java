package io.poolbudget.it;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.poolbudget.install.ChartTools;
import io.poolbudget.config.LeaderElection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The operator installed as users install it, by helm or by kubectl apply -k, into poolbudget-system. */
final class Installation {
    static final String NAMESPACE = "poolbudget-system";
    static final String LOCAL_VALUES = "hack/local-values.yaml";
    static final String LOCAL_OVERLAY = "hack/local-overlay";
    private final KubernetesClient client;
    private final Path kubeconfig;

    Installation(KubernetesClient client, Path kubeconfig) {
        this.client = client;
        this.kubeconfig = kubeconfig;
    }

    /** The namespace, enforcing the restricted Pod Security Standard: a pod that breaks it is refused. */
    void createNamespace() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
                .addToLabels("pod-security.kubernetes.io/enforce", "restricted").endMetadata().build())
                .serverSideApply();
    }

    void helm(String... args) {
        var all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--kubeconfig", kubeconfig.toString()));
        var r = ChartTools.helm(all.toArray(String[]::new));
        if (r.exit() != 0) {
            throw new AssertionError(
                    "helm " + String.join(" ", args) + " failed:\n" + r.output() + "\noperator log:\n" + log());
        }
    }

    void kubectl(String... args) {
        var cmd = new ArrayList<>(
                List.of(clusterBin().resolve("kubectl").toString(), "--kubeconfig", kubeconfig.toString()));
        cmd.addAll(List.of(args));
        var r = ChartTools.run(cmd);
        if (r.exit() != 0) {
            throw new AssertionError(String.join(" ", cmd) + " failed:\n" + r.output());
        }
    }

    List<Pod> pods() {
        return client.pods().inNamespace(NAMESPACE).withLabel("app.kubernetes.io/name", "poolbudget").list().getItems()
                .stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    static boolean ready(Pod p) {
        return p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
                .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
    }

    /** The pod holding the leader Lease, or null. */
    String leader() {
        var lease = client.leases().inNamespace(NAMESPACE).withName(LeaderElection.LEASE_NAME).get();
        return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }

    String log() {
        var sb = new StringBuilder();
        for (Pod p : pods()) {
            try {
                String log = client.pods().inNamespace(NAMESPACE).withName(p.getMetadata().getName()).tailingLines(60)
                        .getLog();
                sb.append("--- ").append(p.getMetadata().getName()).append('\n').append(log);
            } catch (RuntimeException e) {
                sb.append("--- ").append(p.getMetadata().getName()).append(": no log (").append(e.getMessage())
                        .append(")\n");
            }
        }
        return sb.toString();
    }

    /** Removes both kinds of install, keeping the CRD (other tests share it). */
    void removeAll() {
        ChartTools.helm("uninstall", "poolbudget", "-n", NAMESPACE, "--wait", "--kubeconfig", kubeconfig.toString());
        // what kubectl apply -k made outside the namespace, but the CRDs (the cluster's other policies need them):
        // left behind, a later helm install of the same chart refuses to adopt them
        for (String name : List.of("poolbudget", "poolbudget-shared-budgets")) {
            client.rbac().clusterRoleBindings().withName(name).delete();
        }
        for (String name : List.of("poolbudget", "poolbudget-shared-budgets", "poolbudget-edit", "poolbudget-view")) {
            client.rbac().clusterRoles().withName(name).delete();
        }
        client.admissionRegistration().v1().validatingAdmissionPolicyBindings().withName("poolbudget-writers-may-patch")
                .delete();
        client.admissionRegistration().v1().validatingAdmissionPolicies().withName("poolbudget-writers-may-patch")
                .delete();
        client.namespaces().withName(NAMESPACE).delete();
        client.namespaces().withName(NAMESPACE).waitUntilCondition(n -> n == null, 120, TimeUnit.SECONDS);
    }

    static Path clusterBin() {
        var r = ChartTools.run(List.of("hack/cluster/build.sh"));
        var lines = r.output().strip().split("\n");
        return Path.of(lines[lines.length - 1]);
    }
}
