package io.poolbudget.api.v1alpha1;

/** Which replica count a target's pool size is planned for. */
public enum ReplicaBasis {
    HpaMax, Current, Fixed
}
