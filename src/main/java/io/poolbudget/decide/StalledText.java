package io.poolbudget.decide;

import io.poolbudget.sizing.Limits;

/**
 * A rollout that stopped making progress (crash-looping new pods, ProgressDeadlineExceeded) is a problem to report, not
 * "rolling out": the size it carries has not taken effect. Where its running pods hold more than that size, the app
 * may not start with it: say what fixes that.
 */
final class StalledText {
    private StalledText() {}

    static String of(Sized s, Integer applied) {
        int running = s.state().runningHolds();
        String field = "spec.targets[" + s.index() + "].minPoolSize";
        String fix = applied == null || running <= applied ? "" : ". If the app cannot start with a pool of "
                + applied + (applied == 1 ? " (one that takes a second connection while it holds one cannot), set "
                        + field + ": 2"
                        : ", set " + field + " to the smallest pool it starts with ("
                                + (Limits.noPoolLimit(running) ? "its running pods have no pool limit"
                                        : "its running pods hold " + running)
                                + ")")
                + " or give the database more budget";
        return "pool size " + applied + " has not taken effect: " + s.stalled() + "; its old pods keep their pools"
                + fix;
    }
}
