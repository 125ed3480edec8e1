package io.poolbudget.api.v1alpha1;

public enum ObserveGroupBy {
    ClientAddress, ApplicationName
}
