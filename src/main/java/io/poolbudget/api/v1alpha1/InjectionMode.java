package io.poolbudget.api.v1alpha1;

/** Where the pool size is written. */
public enum InjectionMode {
    Env, ConfigMap
}
