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
        SHARE
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
