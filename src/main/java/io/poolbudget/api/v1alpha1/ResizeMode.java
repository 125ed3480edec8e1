package io.poolbudget.api.v1alpha1;

/** How running pods take a new pool size (docs on {@link InjectionSpec#getResize}). */
public enum ResizeMode {
    Rollout, Live;

    public static ResizeMode of(InjectionSpec spec) {
        return spec == null || spec.getResize() == null ? Rollout : spec.getResize();
    }
}
