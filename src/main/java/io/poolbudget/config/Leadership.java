package io.poolbudget.config;

/**
 * Whether this replica leads: true from the start where leader election is off, from its election where it is on. What
 * writes outside the Kubernetes API (the ledger's ticks) asks it, since the operator SDK holds back only the
 * reconciles of a standby, not the timers its event sources start.
 */
@jakarta.inject.Singleton
public class Leadership {
    private volatile boolean leading;

    @jakarta.inject.Inject
    public Leadership(OperatorConfig config) {
        this(!config.leaderElection().enabled());
    }

    public Leadership(boolean leading) {
        this.leading = leading;
    }

    public boolean leading() {
        return leading;
    }

    void started() {
        leading = true;
    }

    void stopped() {
        leading = false;
    }
}
