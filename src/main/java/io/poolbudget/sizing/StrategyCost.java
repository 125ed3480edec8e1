package io.poolbudget.sizing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a target's rollout surge costs it, said: the pool it would get with maxSurge 0 (its maxUnavailable kept, 1
 * where it resolves to none, as Kubernetes requires), everything else alike. For a Deployment's RollingUpdate and an
 * Argo canary without traffic routing ({@link Rollout#withoutSurge}): elsewhere no maxSurge sets the surge. Said only where that pool is larger, for policies of up to
 * {@link #MOST_TARGETS} targets (each target asks the engine once more).
 */
final class StrategyCost {
    static final int MOST_TARGETS = 30;

    private StrategyCost() {}

    /** One sentence per target (null where its surge costs it nothing), in the order of {@code targets}. */
    static String[] of(Budget budget, List<TargetInput> targets, List<TargetAllocation> current) {
        String[] out = new String[targets.size()];
        if (targets.size() > MOST_TARGETS) {
            return out;
        }
        for (int i = 0; i < targets.size(); i++) {
            TargetInput t = targets.get(i);
            TargetAllocation now = current.get(i);
            Rollout noSurge = t.rollout() == null || now.peak().surge() == 0 || now.peak().basisReplicas() == 0 ? null
                    : t.rollout().withoutSurge(now.peak().basisReplicas());
            if (noSurge == null) {
                continue;
            }
            IntOrPercent unavailable = noSurge instanceof Canary c ? c.maxUnavailable()
                    : noSurge instanceof Rollout.RollingUpdate r ? r.maxUnavailable() : null;
            List<TargetInput> alt = new ArrayList<>(targets);
            alt.set(i, t.toBuilder().rollout(noSurge).build());
            TargetAllocation then = PoolSizer.allocateOnly(budget, alt).get(i);
            if (then.poolSize() > now.poolSize() && then.oversubscribed() == null) {
                out[i] = String.format(Locale.ROOT, "with maxSurge 0 (maxUnavailable %s) %s would get pool %d instead "
                        + "of %d (peak pods %d instead of %d): its rollout would stop old pods before starting their "
                        + "replacements", unavailable, t.id(), then.poolSize(), now.poolSize(),
                        then.peak().total(), now.peak().total());
            }
        }
        return out;
    }
}
