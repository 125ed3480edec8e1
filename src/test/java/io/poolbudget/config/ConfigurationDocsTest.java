package io.poolbudget.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.config.WithDefault;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every setting of {@link OperatorConfig} is in docs/reference/configuration.md's table, with its default. */
class ConfigurationDocsTest {

    /** Each key under poolbudget., as the mapping names it, and its default ("" where it has none). */
    static List<String[]> keys(Class<?> type, String prefix) {
        List<String[]> keys = new ArrayList<>();
        for (Method m : type.getDeclaredMethods()) {
            String key = prefix + "." + m.getName().replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase();
            if (m.getReturnType().isInterface() && m.getReturnType().getEnclosingClass() == OperatorConfig.class) {
                keys.addAll(keys(m.getReturnType(), key));
            } else {
                WithDefault d = m.getAnnotation(WithDefault.class);
                keys.add(new String[]{key, d == null ? "" : d.value()});
            }
        }
        return keys;
    }

    @Test
    void theTableNamesEveryKeyItsVariableAndItsDefault() throws IOException {
        String doc = Files.readString(Path.of("docs/reference/configuration.md"));
        var keys = keys(OperatorConfig.class, "poolbudget");
        assertThat(keys).hasSizeGreaterThanOrEqualTo(7);
        for (String[] k : keys) {
            String variable = k[0].toUpperCase().replace('.', '_').replace('-', '_');
            String row = "| `" + k[0] + "` | `" + variable + "` | " + (k[1].isEmpty() ? "" : "`" + k[1] + "`") + " |";
            assertThat(doc).as("docs/reference/configuration.md lists %s", k[0]).contains(row);
        }
    }
}
