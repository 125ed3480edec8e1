package io.poolbudget.sizing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a target's rollout surge costs it, said: the pool it would get with maxSurge 0 (its maxUnavailable kept, 1
 * where it resolves to none, as Kubernetes requires), everything else alike. Said only where that pool is larger, for policies of up to
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
            if (!(t.rollout() instanceof Rollout.RollingUpdate r) || now.peak().surge() == 0
                    || now.peak().basisReplicas() == 0) {
                continue;
            }
            // Kubernetes refuses maxSurge and maxUnavailable both 0: the alternative keeps at least one unavailable
            IntOrPercent unavailable = r.maxUnavailable().resolve(now.peak().basisReplicas(), false) == 0
                    ? IntOrPercent.of(1) : r.maxUnavailable();
            var noSurge = new Rollout.RollingUpdate(IntOrPercent.of(0), unavailable);
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
