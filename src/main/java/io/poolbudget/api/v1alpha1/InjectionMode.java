package io.poolbudget.api.v1alpha1;

/** Where the pool size is written (docs on {@link InjectionSpec#getMode}). */
public enum InjectionMode {
    Env, ConfigMap, EnvFrom;

    /** The mode a spec uses: its own, else its preset's (EnvFrom where the size goes into a connection string). */
    public static InjectionMode of(InjectionSpec spec) {
        if (spec.getMode() != null) {
            return spec.getMode();
        }
        return spec.getPreset() != null && spec.getPreset().inConnectionString() ? EnvFrom : Env;
    }
}
