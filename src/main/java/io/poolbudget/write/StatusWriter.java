package io.poolbudget.write;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import io.poolbudget.status.SameStatus;
import java.util.function.Supplier;

/**
 * The one writer of the operator's statuses, a PoolPolicy's and a DatabaseBudget's alike, from every path (a pass's
 * announcement before its writes, its status after them, a pass that failed): server-side apply of the status alone
 * under the controller's field manager, forced, so that one owner holds every field and each write replaces them all;
 * written only when it differs from what the object has, and put in JOSDK's cache of the object so that the next pass
 * reads it, not a copy from before it.
 */
public final class StatusWriter {
    private StatusWriter() {}

    /**
     * Writes {@code status} as {@code current}'s when it differs, and returns the object as it is now ({@code current}
     * when nothing was written). {@code blank} makes an empty object of the kind, for the minimal patch: name,
     * namespace and status, nothing else.
     */
    public static <S, P extends CustomResource<?, S>> P write(P current, S status, Context<P> context,
            Supplier<P> blank) {
        if (SameStatus.as(status, current.getStatus())) {
            return current;
        }
        P patch = blank.get();
        patch.setMetadata(new ObjectMetaBuilder().withName(current.getMetadata().getName())
                .withNamespace(current.getMetadata().getNamespace()).build());
        patch.setStatus(status);
        return PrimaryUpdateAndCacheUtils.ssaPatchStatusAndCacheResource(current, patch, context);
    }
}
