package io.poolbudget.ledger;

import io.poolbudget.api.v1alpha1.DatabaseBudgetStatus;
import io.poolbudget.api.v1alpha1.LedgerEvidence;
import io.poolbudget.api.v1alpha1.LedgerSpec;
import io.poolbudget.api.v1alpha1.LedgerStatus;
import io.poolbudget.ledger.LedgerSync.State;
import io.poolbudget.planning.BudgetCap;
import io.poolbudget.sizing.ClusterLedger.Claim;
import io.poolbudget.sizing.ClusterLedger.Failed;
import io.poolbudget.sizing.ClusterLedger.Refused;
import io.poolbudget.sizing.ClusterLedger.Settled;
import java.util.List;

/**
 * What goes into a tick and what comes out of it, apart from the database: what this cluster's pods may hold, the
 * cap its policies plan under, and the budget's status of the ledger.
 */
public final class LedgerHolds {
    private LedgerHolds() {}

    /**
     * What this cluster's pods may hold of the budget, for its claim: each admitted policy's plan or its pods' sizes,
     * whichever is larger, what pods outside them hold, and at least the plans handed out at the last two ticks (a
     * pass may still be applying one its status does not show yet). Where a policy's pods may open any number of
     * connections, at least the last grant.
     */
    static long of(DatabaseBudgetStatus status, State before) {
        long holds = 0;
        boolean unbounded = false;
        if (status != null) {
            for (var row : status.getPolicies()) {
                long allocated = row.getAllocated() == null ? 0 : row.getAllocated();
                long live = row.getLive() == null ? 0 : row.getLive();
                holds += Math.max(allocated, live);
                unbounded |= Boolean.TRUE.equals(row.getLiveUnbounded());
            }
            holds += status.getHeldOutside() == null ? 0 : status.getHeldOutside();
        }
        if (before != null) {
            holds = Math.max(holds, Math.max(before.handed(), before.handedBefore()));
            if (unbounded && before.settled() != null) {
                holds = Math.max(holds, before.settled().granted());
            }
        }
        return holds;
    }

    /** The cap the policies of a ledger's budget plan under: kept as planned until the ledger has settled a tick. */
    static BudgetCap cap(State state, LedgerSpec spec) {
        String ledger = "ledger " + spec.getName() + " (cluster " + spec.getCluster() + ")";
        if (state == null) {
            return new BudgetCap(null, true, "what its policies planned with, until " + ledger + " answers");
        }
        if (state.latest() instanceof Settled s) {
            return new BudgetCap(s.planWith(), false, "this cluster's part of " + ledger + ": "
                    + (s.planWith() == s.target() ? "its target " + s.target()
                            : "its grant " + s.granted() + " of its target " + s.target()));
        }
        Long last = state.settled() == null ? null : state.settled().planWith();
        return new BudgetCap(last, true, "what its policies planned with, while " + ledger + " cannot be "
                + "used (" + problem(state) + ")");
    }

    /** Why the last tick did not settle; null where it did. */
    public static String problem(State state) {
        if (state == null) {
            return null;
        }
        if (state.latest() instanceof Failed f) {
            return f.reason() + ": " + f.message();
        }
        if (state.latest() instanceof Refused r) {
            return "Refused: " + r.reason();
        }
        return null;
    }

    static Evidence evidence(LedgerEvidence spec) {
        if (spec == null) {
            throw new IllegalArgumentException("name one of clientCIDR, applicationNamePrefix or user");
        }
        if (spec.getClientCIDR() != null) {
            return new Evidence(Evidence.Kind.ClientCIDR, spec.getClientCIDR());
        }
        if (spec.getApplicationNamePrefix() != null) {
            return new Evidence(Evidence.Kind.ApplicationNamePrefix, spec.getApplicationNamePrefix());
        }
        if (spec.getUser() != null) {
            return new Evidence(Evidence.Kind.User, spec.getUser());
        }
        throw new IllegalArgumentException("name one of clientCIDR, applicationNamePrefix or user");
    }

    /** The same claims but for their lease times, which move on every renewal. */
    static boolean claimsAlike(List<Claim> a, List<Claim> b) {
        return a.size() == b.size() && java.util.stream.IntStream.range(0, a.size()).allMatch(i -> {
            Claim x = a.get(i);
            Claim y = b.get(i);
            return x.cluster().equals(y.cluster()) && x.weight() == y.weight() && x.declared() == y.declared()
                    && x.granted() == y.granted() && x.holds() == y.holds() && x.evidence().equals(y.evidence());
        });
    }

    /** The budget's status of its ledger, as the last settled tick read it. */
    public static LedgerStatus status(State state) {
        if (state == null || state.settled() == null) {
            return null;
        }
        Settled s = state.settled();
        var status = new LedgerStatus();
        status.setBudget(s.budget());
        status.setTarget(s.target());
        status.setGranted(s.granted());
        status.setPlanWith(s.planWith());
        status.setWaiting(s.waits());
        status.setClusters(s.claims().stream().map(c -> {
            var row = new LedgerStatus.ClusterClaim();
            row.setCluster(c.cluster());
            row.setWeight(c.weight());
            row.setGranted(c.granted());
            row.setHolds(c.holds());
            row.setLease(c.leaseUntil() >= s.at() ? "Running" : "Lapsed");
            return row;
        }).toList());
        return status;
    }
}
