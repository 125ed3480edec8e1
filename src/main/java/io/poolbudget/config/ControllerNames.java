package io.poolbudget.config;

/**
 * The operator's controllers' names: each controller is registered under its name, and its operator SDK properties
 * ({@code quarkus.operator-sdk.controllers.<name>.*}, as {@link WatchedNamespaces} reads them) are keyed by it. Here,
 * below the controllers, so that configuration can name a controller without depending on it.
 */
public final class ControllerNames {
    /** The PoolPolicy controller. */
    public static final String POLICY = "poolpolicy";
    /** The DatabaseBudget controller. */
    public static final String BUDGET = "databasebudget";

    private ControllerNames() {}
}
