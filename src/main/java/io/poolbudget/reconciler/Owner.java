package io.poolbudget.reconciler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The names one PoolPolicy writes under, so that two policies can size one workload side by side (a
 * primary's pool and a replica's): its own server-side-apply field manager, its own annotation keys
 * and its own ConfigMaps. Only the marker label is shared, and both apply it with the same value, so
 * server-side apply gives them joint ownership instead of a conflict. Pure.
 */
public record Owner(String policy) {
    /** On pod templates (so on pods) and ConfigMaps the operator writes: what its informers cache. */
    public static final String SIZED_LABEL = "poolbudget.io/sized";
    /** On the operator's ConfigMaps: which policy's (its key). Version 0.1 put it on pod templates too. */
    public static final String POLICY_LABEL = "poolbudget.io/policy";
    static final String SIZE_PREFIX = "pool-size.poolbudget.io/";
    static final String HASH_PREFIX = "config-hash.poolbudget.io/";
    /**
     * The DatabaseBudget a pod's pool was sized from, and its pools per pod when more than one: a pod keeps counting
     * against that budget until it is gone, whatever becomes of its policy.
     */
    static final String BUDGET_PREFIX = "budget.poolbudget.io/";
    static final String POOLS_PREFIX = "pools-per-pod.poolbudget.io/";

    /** Version 0.1 wrote every policy's fields under one manager and these keys; an upgrade hands them over. */
    static final String LEGACY_MANAGER = "poolbudget-operator";
    static final String LEGACY_SIZE_ANNOTATION = "poolbudget.io/pool-size";
    static final String LEGACY_HASH_ANNOTATION = "poolbudget.io/config-hash";

    public Owner {
        Objects.requireNonNull(policy, "policy");
    }

    public static Owner of(HasMetadata policy) {
        return new Owner(policy.getMetadata().getName());
    }

    /** The field manager; the API server takes at most 128 characters. */
    public String fieldManager() {
        return "poolbudget/" + shortened(policy, 116);
    }

    /** The policy's name where it fits a label value and an annotation key's name part (63), else a shortened form. */
    public String key() {
        return shortened(policy, 63);
    }

    public String sizeAnnotation() { return SIZE_PREFIX + key(); }

    public String hashAnnotation() { return HASH_PREFIX + key(); }

    public String budgetAnnotation() { return BUDGET_PREFIX + key(); }

    public String poolsAnnotation() { return POOLS_PREFIX + key(); }

    public String configMapName(WorkloadKind kind, String workload) {
        return shortened("poolbudget-" + key() + "-" + kind.name().toLowerCase() + "-" + workload, 253);
    }

    /** Version 0.1's ConfigMap of a workload, one per workload whatever the policy. */
    static String legacyConfigMapName(WorkloadKind kind, String workload) {
        return shortened("poolbudget-" + kind.name().toLowerCase() + "-" + workload, 253);
    }

    /** This policy's annotation is on the object (a pod or pod template it sized). */
    boolean sized(ObjectMeta meta) {
        return annotation(meta, sizeAnnotation()) != null || legacy(meta);
    }

    /** Version 0.1 sized it for this policy: its single label names the policy. */
    boolean legacy(ObjectMeta meta) {
        return meta != null && meta.getLabels() != null && policy.equals(meta.getLabels().get(POLICY_LABEL));
    }

    /** The keys of the policies whose sizes an object (a pod) carries, and version 0.1's label value. */
    static List<String> keysOn(ObjectMeta meta) {
        List<String> keys = new ArrayList<>();
        if (meta.getAnnotations() != null) {
            meta.getAnnotations().keySet().stream().filter(k -> k.startsWith(SIZE_PREFIX))
                    .forEach(k -> keys.add(k.substring(SIZE_PREFIX.length())));
        }
        if (meta.getLabels() != null && meta.getLabels().get(POLICY_LABEL) != null) {
            keys.add(meta.getLabels().get(POLICY_LABEL));
        }
        return keys;
    }

    static String annotation(ObjectMeta meta, String key) {
        Map<String, String> a = meta == null ? null : meta.getAnnotations();
        return a == null ? null : a.get(key);
    }

    /**
     * The JSON patch that renames version 0.1's field manager to this policy's on an object it alone wrote, so
     * that this policy's next apply owns those fields and drops the old keys; null when there is nothing to hand
     * over, or when this policy's manager has its own entry already (then the old one is released instead).
     * Each rename is guarded by a test of the entry it renames, so a stale cache makes the patch fail, not misfire.
     */
    String handOverPatch(List<ManagedFieldsEntry> entries) {
        if (entries == null || entries.stream().anyMatch(e -> fieldManager().equals(e.getManager()))) {
            return null;
        }
        List<String> ops = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            ManagedFieldsEntry e = entries.get(i);
            if (LEGACY_MANAGER.equals(e.getManager()) && "Apply".equals(e.getOperation())) {
                String path = "/metadata/managedFields/" + i + "/manager";
                ops.add("{\"op\":\"test\",\"path\":\"" + path + "\",\"value\":\"" + LEGACY_MANAGER + "\"}");
                ops.add("{\"op\":\"replace\",\"path\":\"" + path + "\",\"value\":\"" + fieldManager() + "\"}");
            }
        }
        return ops.isEmpty() ? null : "[" + String.join(",", ops) + "]";
    }

    static boolean legacyManaged(HasMetadata object) {
        var entries = object.getMetadata().getManagedFields();
        return entries != null && entries.stream()
                .anyMatch(e -> LEGACY_MANAGER.equals(e.getManager()) && "Apply".equals(e.getOperation()));
    }

    /** Cut to {@code max} characters with a hash of the whole, ending in a letter or digit as names must. */
    static String shortened(String name, int max) {
        if (name.length() <= max) {
            return name;
        }
        String head = name.substring(0, max - 13).replaceAll("[^A-Za-z0-9]+$", "");
        return head + "-" + Injection.hash(name).substring(0, 12);
    }
}
