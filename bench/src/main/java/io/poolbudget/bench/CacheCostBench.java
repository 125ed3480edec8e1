package io.poolbudget.bench;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.poolbudget.api.argo.ArgoRollout;
import io.poolbudget.cache.PrunedStore;
import io.poolbudget.config.ListPages;
import java.lang.management.ManagementFactory;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What the operator's informer caches hold per object, measured: for each workload kind of the scale fleet
 * (bench/scale-fleet.sh), the heap one object takes as the API server's list gives it (what an informer with a plain
 * store would keep), as the operator's store keeps a workload a policy reads (pruned and compacted), and as it keeps
 * one no policy reads (a skeleton); and the bytes of one object in a list response, whole and as metadata only
 * ({@code PartialObjectMetadata}, what a metadata-only informer would be sent). Retained heap is the heap in use after
 * a full collection with the objects held, less the same without them, over their number; run it with the serial
 * collector (bench/cache-cost.sh) so that a collection is a whole one.
 */
public final class CacheCostBench {
    private static final String METADATA_ONLY = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";

    private CacheCostBench() {}

    public static void main(String[] args) throws Exception {
        try (KubernetesClient client = new KubernetesClientBuilder().build()) {
            System.out.printf(Locale.ROOT, "%-34s %8s %12s %12s %12s %12s %12s%n", "objects (label)", "count",
                    "as listed", "kept whole", "skeleton", "wire whole", "wire meta");
            row(client, "Deployments a policy selects", "db=orders", "apis/apps/v1/deployments",
                    () -> client.apps().deployments());
            row(client, "Deployments nobody targets", "tier=other", "apis/apps/v1/deployments",
                    () -> client.apps().deployments());
            row(client, "CronJobs nobody targets", "tier=other", "apis/batch/v1/cronjobs",
                    () -> client.batch().v1().cronjobs());
            row(client, "Argo Rollouts nobody targets", "tier=other", "apis/argoproj.io/v1alpha1/rollouts",
                    () -> client.resources(ArgoRollout.class));
            System.out.println("heap per object in bytes (retained after a full GC); wire: bytes of one object in a"
                    + " list response, in pages of " + ListPages.LIMIT);
        }
    }

    private static <T extends HasMetadata, L extends KubernetesResourceList<T>> void row(KubernetesClient client,
            String what, String label, String path, Supplier<? extends MixedOperation<T, L, ?>> op) throws Exception {
        int n = forEachPage(op, label, items -> {});
        if (n == 0) {
            System.out.printf(Locale.ROOT, "%-34s %8d   (none: run bench/operator-scale.sh's fleet first)%n", what, 0);
            return;
        }
        long listed = retained(n, () -> {
            List<T> all = new ArrayList<>(n);
            forEachPage(op, label, all::addAll);
            return all;
        });
        long whole = retained(n, () -> {
            PrunedStore<T> store = new PrunedStore<>();
            forEachPage(op, label, items -> items.forEach(o -> store.put(key(o), o)));
            return store;
        });
        long skeleton = retained(n, () -> {
            PrunedStore<T> store = PrunedStore.workloads(ns -> List.of());
            forEachPage(op, label, items -> items.forEach(o -> store.put(key(o), o)));
            return store;
        });
        long wire = wireBytes(client, path, label, null) / n;
        long meta = wireBytes(client, path, label, METADATA_ONLY) / n;
        System.out.printf(Locale.ROOT, "%-34s %8d %12d %12d %12d %12d %12d%n", what + " (" + label + ")", n, listed,
                whole, skeleton, wire, meta);
    }

    private static String key(HasMetadata o) {
        return o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
    }

    /** Lists every object with the label in pages, as an informer lists; returns how many there were. */
    private static <T extends HasMetadata, L extends KubernetesResourceList<T>> int forEachPage(
            Supplier<? extends MixedOperation<T, L, ?>> op, String label, Consumer<List<T>> page) {
        String next = null;
        int n = 0;
        do {
            L list = op.get().inAnyNamespace().withLabelSelector(label)
                    .list(new ListOptionsBuilder().withLimit(ListPages.LIMIT).withContinue(next).build());
            page.accept(list.getItems());
            n += list.getItems().size();
            next = list.getMetadata() == null ? null : list.getMetadata().getContinue();
        } while (next != null && !next.isEmpty());
        return n;
    }

    /** The bytes of every list response for the label, in pages, asked for as {@code accept} says (null: JSON). */
    private static long wireBytes(KubernetesClient client, String path, String label, String accept) throws Exception {
        var http = client.getHttpClient();
        String master = client.getMasterUrl().toString();
        String base = (master.endsWith("/") ? master : master + "/") + path + "?limit=" + ListPages.LIMIT
                + "&labelSelector=" + URLEncoder.encode(label, StandardCharsets.UTF_8);
        long bytes = 0;
        String next = null;
        do {
            HttpRequest.Builder request = http.newHttpRequestBuilder().uri(base + (next == null ? ""
                    : "&continue=" + URLEncoder.encode(next, StandardCharsets.UTF_8)));
            if (accept != null) {
                request.header("Accept", accept);
            }
            HttpResponse<byte[]> response = http.sendAsync(request.build(), byte[].class).get();
            if (response.code() != 200) {
                throw new IllegalStateException(path + " answered " + response.code());
            }
            bytes += response.body().length;
            var meta = Serialization.unmarshal(new String(response.body(), StandardCharsets.UTF_8),
                    java.util.Map.class).get("metadata");
            next = meta instanceof java.util.Map<?, ?> m && m.get("continue") instanceof String c ? c : null;
        } while (next != null && !next.isEmpty());
        return bytes;
    }

    /** The heap {@code load}'s result holds per object, of {@code n}, after full collections. */
    private static long retained(int n, Supplier<Object> load) {
        long before = used();
        Object held = load.get();
        long after = used();
        java.lang.ref.Reference.reachabilityFence(held);
        return (after - before) / n;
    }

    private static long used() {
        var memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
