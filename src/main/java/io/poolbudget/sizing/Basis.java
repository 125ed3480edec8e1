package io.poolbudget.sizing;

/** Which replica count a target is planned for. */
public enum Basis {
    /** The HPA's maxReplicas: scaling inside the HPA's range then needs no new pool size. */
    HPA_MAX,
    /** The workload's current replica count. */
    CURRENT,
    /** A fixed replica count given in the policy. */
    FIXED
}
