package io.poolbudget.sizing;

/**
 * spec.allocation's numbers: percent of the nominal pool a target may lend while unused, and may borrow above it.
 * lendablePercent lies in [0, 100]; borrowingLimitPercent is at least 0 (a ceiling above maxPoolSize is cut to it).
 */
public record Lending(int lendablePercent, int borrowingLimitPercent) {
    public Lending {
        Check.atLeast("allocation.lendablePercent", lendablePercent, 0);
        Check.atMost("allocation.lendablePercent", lendablePercent, 100);
        Check.atLeast("allocation.borrowingLimitPercent", borrowingLimitPercent, 0);
    }
}
