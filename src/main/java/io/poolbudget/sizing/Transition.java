package io.poolbudget.sizing;

import java.util.ArrayList;
import java.util.List;

/**
 * What one target's pods may hold while a pool size rolls out over pods that hold another ({@code oldSize}: the
 * largest pool one of its running pods holds), from its strategy: an old pod keeps its pool until it exits, and a
 * rollout may start new pods beside it. In connections (pools per pod counted); {@link #peak} is the most at once,
 * {@link #noOverlap} the most where each old pod has closed its pool before its replacement opens one, and
 * {@link #at} the pods at the peak.
 *
 * <p>A Deployment's RollingUpdate (an Argo canary without traffic routing alike) of r replicas, surge s (rounded up),
 * unavailable u (rounded down; 1 where both are 0) and T old pods terminating at once (the plan's allowance, at r):
 * once the controller has told x old pods to stop it runs min(r, s + x) new ones (it does not count terminating
 * pods), and at most min(T, x) of the stopped ones still hold their pools. So the pods hold
 *
 * <pre>
 * f(x) = (r − x + min(T, x)) × old + min(r, s + x) × new
 * </pre>
 *
 * at x = 0 (the surge pods start beside every old pod) and at every x from u to r (it stops u at once, then one more
 * for each new pod that turns available). f is concave on [u, r], so its largest value there is at u, T, r − s or r.
 * For a lower size it is r × old + min(r, s + T) × new (the surge pods, and the replacements of the old pods still
 * shutting down); with T = 0, r × old + min(r, s) × new: the first step. Recreate and a StatefulSet start a pod's
 * replacement only once it is gone. An Argo blue-green runs a preview of every replica beside the active pods; a
 * traffic-routed canary runs its canary beside the stable pods ({@link Canary#beside}). A CronJob's Jobs started before
 * the change keep their size until they end.
 */
public record Transition(TargetInput target, long replicas, int oldSize, int newSize, Mix at, long peak,
        long noOverlap) {

    /** Pods at once: old ones (of them, shutting down), new ones (of them, surge pods: not replacing a stopped one). */
    public record Mix(long oldPods, long shuttingDown, long newPods, long surgePods) {
        long hold(long oldSize, long newSize) {
            return Limits.saturatedAdd(Limits.saturatedMultiply(oldPods, oldSize),
                    Limits.saturatedMultiply(newPods, newSize));
        }
    }

    /** {@code target}'s change from {@code oldSize} to {@code newSize} over its replicas now. */
    public static Transition of(TargetInput target, int oldSize, int newSize) {
        long r = target.replicas();
        List<Mix> overlap = mixes(target, r, PeakPods.rolloutTerminating(target, r));
        List<Mix> none = mixes(target, r, 0);
        Mix at = most(overlap, oldSize, newSize);
        long pools = target.poolsPerPod();
        return new Transition(target, r, oldSize, newSize, at,
                Limits.saturatedMultiply(at.hold(oldSize, newSize), pools),
                Limits.saturatedMultiply(most(none, oldSize, newSize).hold(oldSize, newSize), pools));
    }

    /** What the old pods hold before the change: replicas × old size × pools per pod. */
    public long now() {
        return Limits.saturatedMultiply(Limits.saturatedMultiply(replicas, oldSize), target.poolsPerPod());
    }

    private static Mix most(List<Mix> mixes, long oldSize, long newSize) {
        Mix best = mixes.get(0);
        for (Mix m : mixes) {
            if (m.hold(oldSize, newSize) > best.hold(oldSize, newSize)) {
                best = m;
            }
        }
        return best;
    }

    /** The pods at once that may hold the most, for each strategy; {@code terminating}: old pods shutting down. */
    static List<Mix> mixes(TargetInput t, long r, long terminating) {
        Rollout rollout = t.rollout();
        if (rollout instanceof Rollout.RollingUpdate ru) {
            return rolling(r, ru.surge(r), ru.unavailable(r), terminating);
        }
        if (rollout instanceof Canary c && !c.trafficRouted()) {
            return rolling(r, c.basic().surge(r), c.basic().unavailable(r), terminating);
        }
        if (rollout instanceof Canary c) {
            return c.beside(r);
        }
        if (rollout instanceof BlueGreen) {
            return List.of(new Mix(r, 0, r, r));
        }
        if (rollout instanceof Batch) {
            long pods = Limits.saturatedAdd(r, terminating);
            return List.of(new Mix(pods, terminating, 0, 0), new Mix(0, 0, pods, 0));
        }
        return List.of(new Mix(r, 0, 0, 0), new Mix(0, 0, r, 0)); // Recreate, StatefulSet: one pod or the other
    }

    /** f(x) at 0 and where it may be largest on [u, r] (see the class comment). */
    private static List<Mix> rolling(long r, long surge, long unavailable, long terminating) {
        long lo = Math.min(unavailable, r);
        long t = Math.min(terminating, r);
        List<Mix> out = new ArrayList<>();
        out.add(stopped(r, surge, t, 0));
        for (long x : new long[]{lo, t, r - Math.min(surge, r), r}) {
            out.add(stopped(r, surge, t, Math.max(lo, Math.min(r, x))));
        }
        return out;
    }

    /** The pods once {@code x} old ones were told to stop. */
    static Mix stopped(long r, long surge, long terminating, long x) {
        long shutting = Math.min(terminating, x);
        return new Mix(r - x + shutting, shutting, Math.min(r, Limits.saturatedAdd(surge, x)), Math.min(surge, r - x));
    }
}
