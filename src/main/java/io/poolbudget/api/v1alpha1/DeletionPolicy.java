package io.poolbudget.api.v1alpha1;

/** What happens to the values the operator wrote when its PoolPolicy is deleted. */
public enum DeletionPolicy {
    Retain, Remove
}
