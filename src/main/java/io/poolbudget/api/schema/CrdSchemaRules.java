package io.poolbudget.api.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.crdv2.generator.CRDPostProcessor;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import java.util.List;
import java.util.Map;

/**
 * Schema rules the CRD generator's annotations cannot express, added to the generated CRDs at build time
 * ({@code quarkus.operator-sdk.crd.post-processor}), so that the API server refuses these inputs itself:
 * <ul>
 *   <li>every label selector's {@code matchExpressions[].operator} is one of In, NotIn, Exists, DoesNotExist, and
 *       In/NotIn carry values while Exists/DoesNotExist carry none (as the API server checks its own selectors);</li>
 *   <li>a DatabaseBudget's {@code spec.namespaces} is a map keyed by {@code name}: a namespace listed twice is
 *       refused instead of its first weight silently winning.</li>
 * </ul>
 */
public class CrdSchemaRules implements CRDPostProcessor {
    static final List<String> OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist");

    @Override
    public HasMetadata process(HasMetadata crd, String crdSpecVersion) {
        if (crd instanceof CustomResourceDefinition v1) {
            for (var version : v1.getSpec().getVersions()) {
                JSONSchemaProps root = version.getSchema().getOpenAPIV3Schema();
                selectors(root);
                if ("databasebudgets.poolbudget.io".equals(crd.getMetadata().getName())) {
                    JSONSchemaProps namespaces = root.getProperties().get("spec").getProperties().get("namespaces");
                    namespaces.setXKubernetesListType("map");
                    namespaces.setXKubernetesListMapKeys(List.of("name"));
                }
            }
        }
        return crd;
    }

    /** Every object with matchExpressions (a LabelSelector) below {@code schema}. */
    private static void selectors(JSONSchemaProps schema) {
        if (schema == null) {
            return;
        }
        Map<String, JSONSchemaProps> properties = schema.getProperties();
        if (properties != null) {
            JSONSchemaProps expressions = properties.get("matchExpressions");
            if (expressions != null && properties.containsKey("matchLabels") && expressions.getItems() != null) {
                requirement(expressions.getItems().getSchema());
            }
            properties.values().forEach(CrdSchemaRules::selectors);
        }
        if (schema.getItems() != null) {
            selectors(schema.getItems().getSchema());
        }
    }

    private static void requirement(JSONSchemaProps item) {
        List<JsonNode> values = OPERATORS.stream().<JsonNode>map(TextNode::new).toList();
        item.getProperties().get("operator").setEnum(values);
        item.setRequired(List.of("key", "operator"));
        var rule = new ValidationRule();
        rule.setRule("self.operator in ['In', 'NotIn'] ? has(self.values) && size(self.values) > 0 "
                + ": !has(self.values) || size(self.values) == 0");
        rule.setMessage("values must be non-empty with operator In or NotIn, and empty with Exists or DoesNotExist");
        item.setXKubernetesValidations(List.of(rule));
    }
}
