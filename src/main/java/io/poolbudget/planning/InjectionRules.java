package io.poolbudget.planning;

import io.poolbudget.api.v1alpha1.EnvNames;
import io.poolbudget.api.v1alpha1.InjectionMode;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.PoolPolicySpec;
import io.poolbudget.api.v1alpha1.ResizeMode;

/**
 * The CRD's rules on spec.injection (its CEL rules), for the plan command and objects stored before the rules: the API
 * server applies them in a cluster. One wording with the CRD's messages.
 */
public final class InjectionRules {
    private InjectionRules() {}

    static void check(PoolPolicySpec spec) {
        if (!Boolean.TRUE.equals(spec.getDryRun()) && spec.getInjection() == null) {
            // the CRD's CEL rule, for the plan command (the API server applies it in a cluster)
            throw new InvalidPolicyException("spec.injection", "is required unless spec.dryRun is true: name a preset "
                    + "or the env variables");
        }
        var injection = spec.getInjection();
        for (String[] env : injection == null ? new String[0][] : new String[][]{
                {"spec.injection.maxPoolSizeEnv", injection.getMaxPoolSizeEnv()},
                {"spec.injection.minIdleEnv", injection.getMinIdleEnv()}}) {
            String refused = EnvNames.refused(env[0], env[1]);
            if (refused != null) {
                // the CRD's CEL rule, for the plan command (and objects stored before the rule)
                throw new InvalidPolicyException(env[0], refused.substring(env[0].length() + 1));
            }
        }
        presetRules(injection);
    }

    /** The rules on presets. */
    private static void presetRules(InjectionSpec injection) {
        if (injection == null) {
            return;
        }
        var preset = injection.getPreset();
        if (preset != null ? injection.getMaxPoolSizeEnv() != null : injection.getMaxPoolSizeEnv() == null
                && injection.getMode() != InjectionMode.EnvFrom) {
            throw new InvalidPolicyException("spec.injection", InjectionSpec.ONE_OF_MESSAGE);
        }
        String live = liveRefused(injection);
        if (ResizeMode.of(injection) == ResizeMode.Live && live != null) {
            throw new InvalidPolicyException("spec.injection.resize", live.substring("injection.resize ".length()));
        }
        if (injection.getDatasource() != null && (preset == null || !preset.named())) {
            throw new InvalidPolicyException("spec.injection.datasource",
                    InjectionSpec.DATASOURCE_MESSAGE.substring("injection.datasource ".length()));
        }
        if (preset != null && preset.inConnectionString() && injection.getMode() != null
                && injection.getMode() != InjectionMode.EnvFrom) {
            throw new InvalidPolicyException("spec.injection.mode",
                    InjectionSpec.URL_MODE_MESSAGE.substring("injection.mode ".length()));
        }
    }

    /**
     * Why resize mode Live cannot serve this injection (the CRD's rules: the operator writes the size as a variable of
     * its own, of a pool its agent resizes), or null where it can.
     */
    public static String liveRefused(InjectionSpec injection) {
        var preset = injection.getPreset();
        if (InjectionMode.of(injection) != InjectionMode.Env
                || injection.getMode() == null && preset != null && preset.inConnectionString()) {
            return InjectionSpec.LIVE_MESSAGE;
        }
        return preset != null && !preset.live() ? InjectionSpec.LIVE_POOL_MESSAGE : null;
    }
}
