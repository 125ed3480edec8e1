package io.poolbudget.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads Kubernetes manifests: multi-document YAML or JSON, files or stdin, kind: List expanded. */
final class Manifests {
    /** Strict for our own API (a misspelt field is an error); Kubernetes' own kinds keep unknown fields. */
    static final ObjectMapper STRICT = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    static final ObjectMapper LENIENT = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** One manifest and where it came from, for error messages. */
    record Document(String source, int index, JsonNode node) {
        String kind() { return node.path("kind").asText(""); }

        String name() { return node.path("metadata").path("name").asText(""); }

        String where() {
            String what = kind().isEmpty() ? "" : " (" + kind() + (name().isEmpty() ? "" : " " + name()) + ")";
            return source + ", document " + index + what;
        }
    }

    /** Input the plan command cannot use, with a message naming the file, the document and the field. */
    static final class BadInput extends Exception {
        BadInput(String message) { super(message); }
    }

    private Manifests() {}

    static List<Document> read(String source, InputStream stdin) throws BadInput {
        try (Reader reader = "-".equals(source) ? new InputStreamReader(stdin, StandardCharsets.UTF_8)
                : Files.newBufferedReader(Path.of(source), StandardCharsets.UTF_8)) {
            String name = "-".equals(source) ? "<stdin>" : source;
            List<Document> documents = new ArrayList<>();
            // Duplicate keys are an error: they usually mean two files were joined without a "---".
            var parser = new YAMLFactory().enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                    .createParser(reader);
            int index = 0;
            for (var it = LENIENT.readValues(parser, JsonNode.class); it.hasNextValue(); ) {
                JsonNode node = it.nextValue();
                index++;
                if (node == null || node.isNull() || node.isMissingNode() || node.isEmpty()) {
                    continue;
                }
                if (!node.isObject()) {
                    throw new BadInput(name + ", document " + index + ": is not a Kubernetes object (a mapping with kind)");
                }
                if ("List".equals(node.path("kind").asText()) || node.path("kind").asText().endsWith("List")) {
                    for (JsonNode item : node.path("items")) {
                        documents.add(new Document(name, index, item));
                    }
                } else {
                    documents.add(new Document(name, index, node));
                }
            }
            return documents;
        } catch (java.nio.file.NoSuchFileException e) {
            throw new BadInput(source + ": no such file");
        } catch (JsonProcessingException e) {
            throw new BadInput(("-".equals(source) ? "<stdin>" : source) + ": not valid YAML: " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")"));
        } catch (IOException e) {
            throw new BadInput(source + ": cannot read: " + e.getMessage());
        }
    }

    /** Binds a document to a class, turning Jackson's errors into "field: problem". */
    static <T> T bind(Document doc, Class<T> type, ObjectMapper mapper) throws BadInput {
        try {
            return mapper.treeToValue(doc.node(), type);
        } catch (JsonMappingException e) {
            String field = path(e);
            String problem = e instanceof com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException
                    ? "is not a field of " + doc.kind() + " (misspelt?)"
                    : "has the wrong type: " + e.getOriginalMessage().split("\n")[0];
            throw new BadInput(doc.where() + ": " + field + " " + problem);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new BadInput(doc.where() + ": " + e.getMessage());
        }
    }

    private static String path(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (var ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? "(document)" : path.toString();
    }
}
