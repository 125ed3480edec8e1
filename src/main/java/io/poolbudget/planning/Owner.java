package io.poolbudget.planning;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
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
    /** On the operator's ConfigMaps: which policy's (its key). */
    public static final String POLICY_LABEL = "poolbudget.io/policy";
    public static final String SIZE_PREFIX = "pool-size.poolbudget.io/";
    public static final String HASH_PREFIX = "config-hash.poolbudget.io/";
    /**
     * The DatabaseBudget a pod's pool was sized from, and its pools per pod when more than one: a pod keeps counting
     * against that budget until it is gone, whatever becomes of its policy.
     */
    public static final String BUDGET_PREFIX = "budget.poolbudget.io/";
    public static final String POOLS_PREFIX = "pools-per-pod.poolbudget.io/";
    /** Resize mode Live: on a pod, the size published to it; on a workload, the size its pods are to hold. */
    public static final String LIVE_PREFIX = "live-size.poolbudget.io/";

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

    public String sizeAnnotation() {
        return SIZE_PREFIX + key();
    }

    public String hashAnnotation() {
        return HASH_PREFIX + key();
    }

    public String budgetAnnotation() {
        return BUDGET_PREFIX + key();
    }

    public String poolsAnnotation() {
        return POOLS_PREFIX + key();
    }

    /** What every ConfigMap of the operator's is named with first (the informer keeps only these in envFrom). */
    public static final String CONFIG_MAP_PREFIX = "poolbudget-";

    public String configMapName(WorkloadKind kind, String workload) {
        return shortened(CONFIG_MAP_PREFIX + key() + "-" + kind.name().toLowerCase() + "-" + workload, 253);
    }

    /** This policy's annotation is on the object (a pod or pod template it sized). */
    public boolean sized(ObjectMeta meta) {
        return annotation(meta, sizeAnnotation()) != null;
    }

    /** The keys of the policies whose sizes an object (a pod) carries, or whose it is (a ConfigMap's label). */
    public static List<String> keysOn(ObjectMeta meta) {
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

    public static String annotation(ObjectMeta meta, String key) {
        Map<String, String> a = meta == null ? null : meta.getAnnotations();
        return a == null ? null : a.get(key);
    }

    /** Cut to {@code max} characters with a hash of the whole, ending in a letter or digit as names must. */
    public static String shortened(String name, int max) {
        if (name.length() <= max) {
            return name;
        }
        String head = name.substring(0, max - 13).replaceAll("[^A-Za-z0-9]+$", "");
        return head + "-" + hash(name).substring(0, 12);
    }

    /** The SHA-256 of the text, in hex: what shortens names and tells ConfigMap contents apart. */
    public static String hash(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
