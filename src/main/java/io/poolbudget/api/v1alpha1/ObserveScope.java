package io.poolbudget.api.v1alpha1;

/** Which of the server's client connections observe counts against the budget. */
public enum ObserveScope {
    Database, User, Server
}
