package io.poolbudget.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.poolbudget.api.v1alpha1.EnvNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 21, item 1: the names a policy may not write, one list for the CRD's CEL rules and for plan. */
class EnvNamesTest {

    static Stream<String> refusedNames() {
        return Stream.concat(EnvNames.DENIED.stream(),
                Stream.of("LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES"));
    }

    @ParameterizedTest
    @MethodSource("refusedNames")
    void everyNameThatChangesHowAProcessStartsIsRefused(String name) {
        assertThat(EnvNames.refused("spec.injection.maxPoolSizeEnv", name))
                .isEqualTo("spec.injection.maxPoolSizeEnv names "
                        + "a variable that changes how a process starts or loads code (JAVA_TOOL_OPTIONS, LD_*, PATH and the "
                        + "others docs/reference/crds.md lists): name the pool size variable your app reads");
    }

    @ParameterizedTest
    @ValueSource(strings = {"HIKARI_MAXIMUM_POOL_SIZE", "DB_POOL", "POOL_LD_SIZE", "JAVA_POOL", "PATHS_POOL"})
    void poolVariablesAreWritten(String name) {
        assertThat(EnvNames.refused("spec.injection.maxPoolSizeEnv", name)).isNull();
    }

    @Test
    void theCommittedCrdRefusesTheSameList() throws Exception {
        var crd = Serialization.unmarshal(Files.readString(Path.of("crds/poolpolicies.poolbudget.io-v1.yml")),
                CustomResourceDefinition.class);
        List<String> rules = crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema().getProperties()
                .get("spec").getProperties().get("injection").getXKubernetesValidations().stream()
                .map(ValidationRule::getRule).toList();
        assertThat(EnvNames.DENIED).hasSizeGreaterThan(20);
        for (String field : new String[]{"maxPoolSizeEnv", "minIdleEnv"}) {
            assertThat(rules).contains("!has(self." + field + ") || !(self." + field + " in " + EnvNames.DENIED_CEL
                    + ") && !" + EnvNames.PREFIXES_CEL + ".exists(p, self." + field + ".startsWith(p))");
        }
    }
}
