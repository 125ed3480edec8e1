package io.poolbudget.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One PoolPolicy with budget 3,000,000,000 once wedged the operator's informer for the whole cluster:
 * the API server stored what the operator could not read. Every integer the user writes must have a
 * maximum in the schema, and every free-form string a maximum length.
 */
class CrdBoundsTest {

    @Test
    void everySpecIntegerHasAMaximumAndEveryNameAMaximumLength() throws IOException {
        var crd = new ObjectMapper(new YAMLFactory())
                .readTree(Files.readString(Path.of("crds/poolpolicies.poolbudget.io-v1.yml")));
        JsonNode spec = crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/spec");
        assertThat(spec.isMissingNode()).as("the CRD has a spec schema").isFalse();
        List<String> unbounded = new ArrayList<>();
        walk("spec", spec, unbounded);
        assertThat(unbounded).as("spec fields without a bound").isEmpty();
    }

    @Test
    void theCheckFindsAnUnboundedField() {
        var schema = new ObjectMapper().valueToTree(Map.of("type", "object", "properties", Map.of(
                "budget", Map.of("type", "integer", "minimum", 1), "name", Map.of("type", "string"))));
        List<String> unbounded = new ArrayList<>();
        walk("spec", schema, unbounded);
        assertThat(unbounded).containsExactlyInAnyOrder("spec.budget (integer without maximum)",
                "spec.name (string without maxLength)");
    }

    private static void walk(String path, JsonNode schema, List<String> unbounded) {
        if (path.endsWith(".selector")) {
            return; // Kubernetes' own LabelSelector; the object size limit bounds it
        }
        String type = schema.path("type").asText();
        if (type.equals("integer") && !schema.has("maximum")) {
            unbounded.add(path + " (integer without maximum)");
        }
        if (type.equals("string") && !schema.has("maxLength") && !schema.has("enum") && !path.endsWith("[]")) {
            unbounded.add(path + " (string without maxLength)");
        }
        schema.path("properties").fields()
                .forEachRemaining(e -> walk(path + "." + e.getKey(), e.getValue(), unbounded));
        if (schema.has("items")) {
            walk(path + "[]", schema.get("items"), unbounded);
        }
    }
}
