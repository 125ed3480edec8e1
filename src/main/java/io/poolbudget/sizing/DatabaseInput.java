package io.poolbudget.sizing;

/**
 * A database's capacity. {@code maxConnections} and {@code budget} may be null (not given).
 * Field names are the PoolPolicy's, so errors name what the user wrote.
 */
public record DatabaseInput(int cores, int effectiveSpindles, int connectionsPerCore, Integer maxConnections,
                            int reservedConnections, Integer budget) {
    public DatabaseInput {
        Check.atLeast("database.cores", cores, 1);
        Check.atMost("database.cores", cores, 100_000);
        Check.atMost("database.connectionsPerCore", connectionsPerCore, 1_000);
        Check.atMost("database.effectiveSpindles", effectiveSpindles, 100_000);
        Check.atLeast("database.effectiveSpindles", effectiveSpindles, 0);
        Check.atLeast("database.connectionsPerCore", connectionsPerCore, 1);
        Check.atLeast("database.reservedConnections", reservedConnections, 0);
        if (maxConnections != null) {
            Check.atLeast("database.maxConnections", maxConnections, 1);
            if (reservedConnections >= maxConnections) {
                throw new InvalidInputException("database.reservedConnections", "must be below database.maxConnections ("
                        + reservedConnections + " >= " + maxConnections + "): lower reservedConnections or raise maxConnections");
            }
        }
        if (budget != null) {
            Check.atLeast("database.budget", budget, 1);
        }
    }

    /** The defaults a PoolPolicy applies: 2 connections per core, no spindles, nothing reserved. */
    public static DatabaseInput ofCores(int cores) {
        return new DatabaseInput(cores, 0, 2, null, 0, null);
    }
}
