package io.poolbudget.api.v1alpha1;

import java.util.Arrays;
import java.util.List;

/**
 * Variable names a PoolPolicy may not write: they change how a process starts or what code it loads
 * (the JVM's option variables, the dynamic loader's, the shell's, other runtimes' start-up hooks).
 * Written as "4", any of them breaks every pod of a target; allowed, a user who may create
 * PoolPolicies but not edit Deployments could restart workloads through the operator. One source
 * for the CRD's CEL rules (compile-time constants) and for {@code plan}.
 */
public final class EnvNames {
    /** The names refused, as a CEL list literal. */
    public static final String DENIED_CEL = "['JAVA_TOOL_OPTIONS', 'JDK_JAVA_OPTIONS', '_JAVA_OPTIONS', 'JAVA_OPTS', "
            + "'JAVA_OPTIONS', 'JAVA_HOME', 'CLASSPATH', 'CATALINA_OPTS', 'MAVEN_OPTS', 'GRADLE_OPTS', 'PATH', 'HOME', "
            + "'SHELL', 'IFS', 'ENV', 'BASH_ENV', 'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'NODE_OPTIONS', "
            + "'NODE_PATH', 'PERL5OPT', 'PERL5LIB', 'RUBYOPT', 'RUBYLIB', 'GEM_PATH', 'GCONV_PATH', 'HOSTALIASES', "
            + "'TMPDIR', 'SSL_CERT_FILE', 'SSL_CERT_DIR']";
    /** Prefixes refused, as a CEL list literal: the dynamic loader's variables. */
    public static final String PREFIXES_CEL = "['LD_', 'DYLD_']";

    static final String RULE_PREFIX = "in " + DENIED_CEL + ") && !" + PREFIXES_CEL + ".exists(p, self.";
    public static final String MESSAGE_TAIL = " names a variable that changes how a process starts or loads code "
            + "(JAVA_TOOL_OPTIONS, LD_*, PATH and the others docs/reference/crds.md lists): name the pool size variable your app reads";

    public static final List<String> DENIED = parse(DENIED_CEL);
    public static final List<String> PREFIXES = parse(PREFIXES_CEL);

    private EnvNames() {}

    /** Why {@code field} may not name {@code name}, or null when it may. */
    public static String refused(String field, String name) {
        if (name == null || !(DENIED.contains(name) || PREFIXES.stream().anyMatch(name::startsWith))) {
            return null;
        }
        return field + MESSAGE_TAIL;
    }

    private static List<String> parse(String celList) {
        return Arrays.stream(celList.substring(1, celList.length() - 1).split(","))
                .map(s -> s.trim().replace("'", "")).toList();
    }
}
