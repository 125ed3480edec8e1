package io.poolbudget.docs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * docs/reference/crds.md, rendered from the committed CRDs (crds/*.yml): for each kind its group, version, scope and
 * short names, then every field of spec and status with its type, whether it is required, its default, its bounds and
 * allowed values, its description, and the rules the API server checks (CEL, with their messages). Nothing is written
 * by hand: a field's words come from its Java class's {@code @JsonPropertyDescription}.
 */
public final class CrdReference {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private CrdReference() {}

    public static String render(Path crds) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(crds)) {
            files = list.filter(p -> p.toString().endsWith(".yml")).sorted().toList();
        }
        StringBuilder out = new StringBuilder(
                """
                        # Custom resource reference

                        <!-- Generated from crds/*.yml by CrdReferenceTest (hack/update-crds.sh writes it): do not edit. -->

                        Every field of the operator's custom resources, as the API server checks them: type, whether it is
                        required, default, bounds and allowed values, what it means, and the rules (CEL) with the message the API
                        server answers when one is broken. `kubectl explain poolpolicy.spec --recursive` shows the same schema.
                        """);
        for (Path file : files) {
            kind(out, YAML.readTree(file.toFile()));
        }
        return out.toString();
    }

    private static void kind(StringBuilder out, JsonNode crd) {
        JsonNode spec = crd.path("spec");
        String kind = spec.path("names").path("kind").asText();
        out.append("\n## ").append(kind).append("\n\n");
        List<String> shortNames = new ArrayList<>();
        spec.path("names").path("shortNames").forEach(n -> shortNames.add("`" + n.asText() + "`"));
        for (JsonNode version : spec.path("versions")) {
            out.append("`").append(spec.path("group").asText()).append("/").append(version.path("name").asText())
                    .append("`, ").append(spec.path("scope").asText().toLowerCase(Locale.ROOT))
                    .append(shortNames.isEmpty() ? "" : ", short name " + String.join(", ", shortNames)).append(".\n");
            JsonNode schema = version.path("schema").path("openAPIV3Schema");
            rules(out, schema, kind);
            for (String part : List.of("spec", "status")) {
                JsonNode node = schema.path("properties").path(part);
                if (!node.isMissingNode()) {
                    out.append("\n### ").append(kind).append(".").append(part).append("\n\n");
                    out.append("| field | type | required | default | allowed | description |\n");
                    out.append("|---|---|---|---|---|---|\n");
                    fields(out, node, part);
                    rulesBelow(out, node, part);
                }
            }
        }
    }

    /** One row per field, depth first in the schema's order. */
    private static void fields(StringBuilder out, JsonNode node, String path) {
        JsonNode props = node.path("properties");
        JsonNode items = node.path("items");
        if (props.isMissingNode() && items.path("properties").isObject()) {
            fields(out, items, path + "[]");
            return;
        }
        List<String> required = new ArrayList<>();
        node.path("required").forEach(r -> required.add(r.asText()));
        for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext();) {
            var field = it.next();
            JsonNode f = field.getValue();
            String name = path + "." + field.getKey();
            out.append("| `").append(name).append("` | ").append(type(f)).append(" | ")
                    .append(required.contains(field.getKey()) ? "yes" : "").append(" | ")
                    .append(f.has("default") ? "`" + f.get("default").toString().replace("\"", "") + "`" : "")
                    .append(" | ").append(allowed(f)).append(" | ").append(cell(f.path("description").asText()))
                    .append(" |\n");
            if (f.path("properties").isObject() || f.path("items").path("properties").isObject()) {
                fields(out, f, name);
            }
        }
    }

    private static String type(JsonNode f) {
        if (f.path("x-kubernetes-int-or-string").asBoolean()) {
            return "integer or string";
        }
        String type = f.path("type").asText("object");
        if (type.equals("array")) {
            return "array of " + (f.path("items").path("properties").isObject() ? "objects"
                    : f.path("items").path("type").asText("object") + "s");
        }
        if (type.equals("object") && f.path("additionalProperties").isObject()) {
            return "map of " + f.path("additionalProperties").path("type").asText("object") + "s";
        }
        return type;
    }

    private static String allowed(JsonNode f) {
        List<String> parts = new ArrayList<>();
        if (f.has("enum")) {
            List<String> values = new ArrayList<>();
            f.get("enum").forEach(v -> values.add("`" + v.asText() + "`"));
            parts.add(String.join(", ", values));
        }
        if (f.has("minimum")) {
            parts.add("≥ " + number(f.get("minimum")));
        }
        if (f.has("maximum")) {
            parts.add("≤ " + number(f.get("maximum")));
        }
        if (f.has("minLength")) {
            parts.add("at least " + f.get("minLength").asInt() + " characters");
        }
        if (f.has("maxLength")) {
            parts.add("at most " + f.get("maxLength").asInt() + " characters");
        }
        if (f.has("pattern")) {
            parts.add("matches `" + f.get("pattern").asText().replace("|", "\\|") + "`");
        }
        if (f.has("maxItems")) {
            parts.add("at most " + f.get("maxItems").asInt() + " items");
        }
        return String.join("; ", parts);
    }

    private static String number(JsonNode n) {
        double d = n.asDouble();
        return d == Math.rint(d) ? String.format(Locale.ROOT, "%,d", (long) d) : n.asText();
    }

    /** The CEL rules on the object itself. */
    private static void rules(StringBuilder out, JsonNode node, String where) {
        if (node.has("x-kubernetes-validations")) {
            out.append("\nRules on ").append(where).append(":\n\n");
            for (JsonNode r : node.get("x-kubernetes-validations")) {
                out.append("- `").append(r.path("rule").asText().replace("`", "'")).append("`: ")
                        .append(r.path("message").asText()).append("\n");
            }
        }
    }

    /** The CEL rules on spec or status and on any field below it, each under the field's path. */
    private static void rulesBelow(StringBuilder out, JsonNode node, String path) {
        List<String> found = new ArrayList<>();
        collect(node, path, found);
        if (!found.isEmpty()) {
            out.append("\nRules the API server checks:\n\n");
            found.forEach(r -> out.append(r).append("\n"));
        }
    }

    private static void collect(JsonNode node, String path, List<String> found) {
        for (JsonNode r : node.path("x-kubernetes-validations")) {
            found.add("- `" + path + "`: `" + r.path("rule").asText().replace("`", "'") + "` (" + r.path("message")
                    .asText() + ")");
        }
        node.path("properties").fields().forEachRemaining(e -> collect(e.getValue(), path + "." + e.getKey(), found));
        if (node.path("items").isObject()) {
            collect(node.path("items"), path + "[]", found);
        }
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
