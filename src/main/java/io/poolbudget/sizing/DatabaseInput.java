package io.poolbudget.sizing;

/**
 * A database's capacity. {@code maxConnections} and {@code budget} may be null (not given).
 * Every figure is one instance's; {@code instances} identical instances behind one endpoint (read
 * replicas behind a reader endpoint) multiply the budget. Field names are the PoolPolicy's, so errors
 * name what the user wrote.
 */
public record DatabaseInput(Integer cores, int effectiveSpindles, int connectionsPerCore, Integer maxConnections,
        int reservedConnections, Integer budget, int instances) {
    public DatabaseInput(Integer cores, int effectiveSpindles, int connectionsPerCore, Integer maxConnections,
            int reservedConnections, Integer budget) {
        this(cores, effectiveSpindles, connectionsPerCore, maxConnections, reservedConnections, budget, 1);
    }

    /** {@code cores} may be null only where an explicit {@code budget} is given: the formula is not needed then. */
    public DatabaseInput {
        Check.atLeast("database.instances", instances, 1);
        Check.atMost("database.instances", instances, Limits.INSTANCES);
        if (cores == null && budget == null) {
            throw new InvalidInputException("database.cores", "is required unless database.budget is given: the "
                    + "database server's CPU cores, or an explicit budget of connections");
        }
        if (cores != null) {
            Check.atLeast("database.cores", cores, 1);
            Check.atMost("database.cores", cores, Limits.CORES);
        }
        Check.atMost("database.connectionsPerCore", connectionsPerCore, Limits.CONNECTIONS_PER_CORE);
        Check.atMost("database.effectiveSpindles", effectiveSpindles, Limits.SPINDLES);
        Check.atLeast("database.effectiveSpindles", effectiveSpindles, 0);
        Check.atLeast("database.connectionsPerCore", connectionsPerCore, 1);
        Check.atLeast("database.reservedConnections", reservedConnections, 0);
        Check.atMost("database.reservedConnections", reservedConnections, Limits.CONNECTIONS);
        if (maxConnections != null) {
            Check.atLeast("database.maxConnections", maxConnections, 1);
            Check.atMost("database.maxConnections", maxConnections, Limits.CONNECTIONS);
            if (reservedConnections >= maxConnections) {
                throw new InvalidInputException("database.reservedConnections",
                        "must be below database.maxConnections ("
                                + reservedConnections + " >= " + maxConnections
                                + "): lower reservedConnections or raise maxConnections");
            }
        }
        if (budget != null) {
            Check.atLeast("database.budget", budget, 1);
            Check.atMost("database.budget", budget, Limits.CONNECTIONS);
        }
    }

    /** The defaults a PoolPolicy applies: 2 connections per core, no spindles, nothing reserved. */
    public static DatabaseInput ofCores(int cores) {
        return new DatabaseInput(cores, 0, 2, null, 0, null);
    }
}
