package io.poolbudget.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads Kubernetes manifests: multi-document YAML or JSON, files or stdin, kind: List expanded. */
final class Manifests {
    /** Strict for our own API (a misspelt field is an error); Kubernetes' own kinds keep unknown fields. */
    static final ObjectMapper STRICT = strictTypes(
            new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES));
    static final ObjectMapper LENIENT = strictTypes(
            new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES));

    /** One manifest and where it came from, for error messages. */
    record Document(String source, int index, JsonNode node) {
        String kind() {
            return node.path("kind").asText("");
        }

        String name() {
            return node.path("metadata").path("name").asText("");
        }

        String where() {
            String what = kind().isEmpty() ? "" : " (" + kind() + (name().isEmpty() ? "" : " " + name()) + ")";
            return source + ", document " + index + what;
        }
    }

    /** Input the plan command cannot use, with a message naming the file, the document and the field. */
    static final class BadInput extends Exception {
        BadInput(String message) {
            super(message);
        }
    }

    private Manifests() {}

    /** As the API server's schema: a number is not a string and an integer has no fraction. */
    private static ObjectMapper strictTypes(ObjectMapper mapper) {
        mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        for (var type : List.of(com.fasterxml.jackson.databind.type.LogicalType.Integer,
                com.fasterxml.jackson.databind.type.LogicalType.Float,
                com.fasterxml.jackson.databind.type.LogicalType.Boolean)) {
            mapper.coercionConfigFor(type).setCoercion(com.fasterxml.jackson.databind.cfg.CoercionInputShape.String,
                    com.fasterxml.jackson.databind.cfg.CoercionAction.Fail);
        }
        return mapper;
    }

    static List<Document> read(String source, InputStream stdin) throws BadInput {
        String name = "-".equals(source) ? "<stdin>" : source;
        String text;
        try (InputStream in = "-".equals(source) ? stdin : Files.newInputStream(Path.of(source))) {
            text = YamlText.read(in, name);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new BadInput(source + ": no such file");
        } catch (IOException e) {
            throw new BadInput(source + ": cannot read: " + e.getMessage());
        }
        List<Document> documents = new ArrayList<>();
        int index = 0;
        for (Object yaml : YamlText.documents(text, name)) {
            index++;
            JsonNode node = LENIENT.valueToTree(yaml);
            if (node == null || node.isNull() || node.isMissingNode() || node.isEmpty()) {
                continue;
            }
            if (!node.isObject()) {
                throw new BadInput(name + ", document " + index + ": is not a Kubernetes object (a mapping with kind)");
            }
            if ("List".equals(node.path("kind").asText()) || node.path("kind").asText().endsWith("List")) {
                for (JsonNode item : node.path("items")) {
                    documents.add(named(new Document(name, index, item)));
                }
            } else {
                documents.add(named(new Document(name, index, node)));
            }
        }
        return documents;
    }

    /** kubectl refuses an object without a name; so does plan, naming the document. */
    private static Document named(Document doc) throws BadInput {
        if (!doc.kind().isEmpty() && doc.name().isEmpty()) {
            throw new BadInput(
                    doc.where() + ": metadata.name is required (kubectl would refuse the object); give it one");
        }
        return doc;
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
