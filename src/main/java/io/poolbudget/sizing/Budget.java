package io.poolbudget.sizing;

/** The connections the targets may hold together, which term decided it, and why. */
public record Budget(long connections, Term term, String explanation) {

    public enum Term {
        /** cores × connectionsPerCore + effectiveSpindles */
        FORMULA,
        /** the explicit database.budget */
        EXPLICIT,
        /** maxConnections − reservedConnections, lower than the other term */
        MAX_CONNECTIONS,
        /** a policy's share of a budget several namespaces draw on (a DatabaseBudget) */
        SHARE,
        /** the client connections a pooler accepts: its client limit × its pods − reserved */
        POOLER
    }

    /**
     * The client side of a pooler tier: apps behind a pooler (PgBouncer) open their pools to the pooler, which
     * accepts {@code clientLimit} client connections per pod (max_client_conn) and refuses the next. Together they
     * may hold {@code clientLimit × pods − reserved}; {@code limitSource} says where the limit was read, for example
     * "MAX_CLIENT_CONN of Deployment/pgbouncer". A pooler with no pods accepts nobody: a budget of 0.
     */
    public static Budget pooler(long clientLimit, String limitSource, int pods, String pooler, long reserved) {
        return pooler(clientLimit, limitSource, pods, pods == 1 ? "1 pod" : pods + " pods", pooler, reserved);
    }

    /** The same, {@code podsWhy} saying how the pods were counted ("3 pods (4 replicas − 1 maxUnavailable ...)"). */
    public static Budget pooler(long clientLimit, String limitSource, int pods, String podsWhy, String pooler,
            long reserved) {
        Check.atLeast("database.pooler.maxClientConn", clientLimit, 1);
        Check.atLeast("database.reservedConnections", reserved, 0);
        long all = Limits.saturatedMultiply(clientLimit, pods);
        long left = Math.max(0, all - reserved);
        return new Budget(left, Term.POOLER, "budget " + left + " = max_client_conn " + clientLimit + " ("
                + limitSource + ") × " + podsWhy + " of " + pooler
                + (reserved > 0 ? " − " + reserved + " reserved" : "") + ": client connections the pooler accepts; "
                + "its server side is counted against the database by the pooler's own policy");
    }

    public static Budget of(DatabaseInput db) {
        Budget one = ofOneInstance(db);
        if (db.instances() == 1) {
            return one;
        }
        long all = Limits.saturatedMultiply(one.connections(), db.instances());
        return new Budget(all, one.term(),
                "budget " + all + " = " + db.instances() + " instances × " + one.connections()
                        + " per instance, where per instance " + one.explanation());
    }

    private static Budget ofOneInstance(DatabaseInput db) {
        long formula = db.cores() == null ? 0 : (long) db.cores() * db.connectionsPerCore() + db.effectiveSpindles();
        String formulaText = "cores " + db.cores() + " × " + db.connectionsPerCore() + " per core + "
                + db.effectiveSpindles() + " effective spindles = " + formula;
        long base = db.budget() != null ? db.budget() : formula;
        String baseText = db.budget() == null ? formulaText : db.cores() == null ? "explicit budget " + db.budget()
                : "explicit budget " + db.budget() + " (instead of " + formulaText + ")";
        Term baseTerm = db.budget() != null ? Term.EXPLICIT : Term.FORMULA;
        if (db.maxConnections() == null) {
            return new Budget(base, baseTerm, "budget " + base + " = " + baseText + "; no maxConnections cap");
        }
        long cap = (long) db.maxConnections() - db.reservedConnections();
        String capText = "maxConnections " + db.maxConnections() + " − " + db.reservedConnections() + " reserved = "
                + cap;
        if (cap < base) {
            return new Budget(cap, Term.MAX_CONNECTIONS,
                    "budget " + cap + " = " + capText + " (caps " + baseText + ")");
        }
        return new Budget(base, baseTerm, "budget " + base + " = " + baseText + " (within " + capText + ")");
    }
}
