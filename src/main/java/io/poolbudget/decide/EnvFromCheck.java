package io.poolbudget.decide;

import io.poolbudget.planning.Owner;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.poolbudget.api.v1alpha1.InjectionSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Mode EnvFrom: the operator writes only its ConfigMap, and the container's own variables refer to its keys
 * ({@code DATABASE_URL: ...?pool_max_conns=$(POOLBUDGET_MAX_POOL_SIZE)}). Kubernetes expands a {@code $(NAME)} only
 * where NAME is defined before it, by {@code envFrom} (resolved first) or an earlier {@code env} entry; otherwise the
 * app reads the literal text and, as a rule, fails to start. So a template that does not read the ConfigMap, refers
 * to none of its keys, or hides them behind variables of its own is a problem to report before any pod starts, never
 * Ready. Pure.
 */
final class EnvFromCheck {
    /** A $(NAME), after any run of $: an even run is escaped dollars and NAME is referred to, an odd one escapes it. */
    private static final Pattern REFERENCE = Pattern.compile("(\\$*)\\$\\(([A-Za-z_][A-Za-z0-9_.-]*)\\)");

    private EnvFromCheck() {}

    /** The problem with the template's containers in mode EnvFrom, or null. */
    static String problem(String configMap, PodSpec pod, List<String> containers, InjectionSpec spec) {
        List<Container> chosen = pod.getContainers().stream().filter(c -> containers.contains(c.getName())).toList();
        boolean explicit = spec.getContainers() != null && !spec.getContainers().isEmpty();
        // by default, the containers that read the ConfigMap; a pod where none does is the problem
        List<Container> reading = chosen.stream().filter(c -> prefix(c, configMap) != null).toList();
        List<Container> checked = explicit ? chosen : reading;
        if (checked.isEmpty()) {
            return "no container reads the operator's values (mode EnvFrom): add to your container "
                    + "envFrom: [{configMapRef: {name: " + configMap + "}}] and refer to $(" + Injection.MAX_KEY
                    + ") in the variable that sets the pool, e.g. your connection string" + hint(spec);
        }
        for (Container c : checked) {
            String prefix = prefix(c, configMap);
            if (prefix == null) {
                return "container '" + c.getName() + "' does not read the operator's values (mode EnvFrom): add "
                        + "envFrom: [{configMapRef: {name: " + configMap + "}}] to it";
            }
            long same = c.getEnvFrom().stream().filter(f -> f.getConfigMapRef() != null
                    && f.getConfigMapRef().getName() != null
                    && f.getConfigMapRef().getName().startsWith(Owner.CONFIG_MAP_PREFIX)
                    && prefix.equals(f.getPrefix() == null ? "" : f.getPrefix())).count();
            if (same > 1) {
                return "container '" + c.getName() + "' reads " + same + " ConfigMaps of the operator under the same "
                        + "prefix, so one hides the other's values: give each envFrom entry its own prefix "
                        + "(e.g. PRIMARY_) and refer to $(PRIMARY_" + Injection.MAX_KEY + ")";
            }
            String max = prefix + Injection.MAX_KEY;
            List<String> refs = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            for (EnvVar e : c.getEnv() == null ? List.<EnvVar>of() : c.getEnv()) {
                if (max.equals(e.getName()) || (prefix + Injection.MIN_KEY).equals(e.getName())) {
                    return "container '" + c.getName() + "' sets " + e.getName() + " itself, which hides the "
                            + "operator's value: remove it from your manifest";
                }
                texts.add(e.getValue());
            }
            // Kubernetes expands references in command and args too
            texts.addAll(c.getCommand() == null ? List.of() : c.getCommand());
            texts.addAll(c.getArgs() == null ? List.of() : c.getArgs());
            for (String text : texts) {
                var m = text == null ? null : REFERENCE.matcher(text);
                while (m != null && m.find()) {
                    if (m.group(1).length() % 2 == 0) {
                        refs.add(m.group(2));
                    }
                }
            }
            // without a preset the app may read the key itself (POOLBUDGET_MAX_POOL_SIZE is then its own variable)
            if (!refs.contains(max) && spec.getPreset() != null) {
                return "no variable of container '" + c.getName() + "' refers to $(" + max + "): put it where your "
                        + "app reads its pool size" + hint(spec) + " (Kubernetes expands it from envFrom)";
            }
        }
        return null;
    }

    /** The prefix under which the container reads the ConfigMap ("" for none), or null where it does not. */
    private static String prefix(Container c, String configMap) {
        for (EnvFromSource source : c.getEnvFrom() == null ? List.<EnvFromSource>of() : c.getEnvFrom()) {
            if (source.getConfigMapRef() != null && configMap.equals(source.getConfigMapRef().getName())) {
                return source.getPrefix() == null ? "" : source.getPrefix();
            }
        }
        return null;
    }

    /** Where the preset reads it: "pool_max_conns=$(POOLBUDGET_MAX_POOL_SIZE) in your connection string". */
    private static String hint(InjectionSpec spec) {
        if (spec.getPreset() == null || !spec.getPreset().inConnectionString()) {
            return "";
        }
        return ", e.g. " + spec.getPreset().knobs().max() + "=$(" + Injection.MAX_KEY + ") in your connection string";
    }
}
