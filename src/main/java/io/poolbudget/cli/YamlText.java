package io.poolbudget.cli;

import io.poolbudget.cli.Manifests.BadInput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Manifest text as kubectl reads it: at most {@link #MAX_BYTES}, strict UTF-8 (from a file or
 * stdin alike), YAML with anchors and aliases expanded, duplicate keys refused, timestamps kept as
 * the strings Kubernetes stores.
 */
final class YamlText {
    /** Far above any manifest (the API server takes requests up to 3 MiB); refused before parsing. */
    static final int MAX_BYTES = 16 * 1024 * 1024;
    /**
     * The longest line: no Kubernetes value comes near it (an object is at most 1.5 MiB in etcd), and
     * the YAML scanner's time grows with the square of a line's length (15 MB on one line: about a minute).
     */
    static final int MAX_LINE = 1024 * 1024;
    /** Aliases in one document, as a guard against alias bombs ("billion laughs"). */
    private static final int MAX_ALIASES = 100;
    /** Nodes the documents may expand to, per character of input, once aliases are followed. */
    static final int EXPANSION = 20;

    private YamlText() {}

    static String read(InputStream in, String name) throws BadInput, IOException {
        byte[] bytes = in.readNBytes(MAX_BYTES + 1);
        if (bytes.length > MAX_BYTES) {
            throw new BadInput(name + ": is larger than " + (MAX_BYTES >> 20) + " MiB; a manifest is far smaller "
                    + "(the API server accepts at most 3 MiB). Split it, or pass only the PoolPolicies and their workloads");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            int at = firstInvalid(bytes);
            int line = 1;
            for (int i = 0; i < at; i++) {
                line += bytes[i] == '\n' ? 1 : 0;
            }
            throw new BadInput(name + ": line " + line + ": is not UTF-8 (byte 0x"
                    + String.format("%02x", bytes[at] & 0xff) + " at offset " + at + "); save the file as UTF-8");
        }
    }

    /** Every YAML document of the text, as maps, lists and scalars (null for an empty document). */
    static List<Object> documents(String text, String name) throws BadInput {
        int line = 1;
        for (int start = 0; start < text.length(); line++) {
            int end = text.indexOf('\n', start);
            end = end < 0 ? text.length() : end;
            if (end - start > MAX_LINE) {
                throw new BadInput(
                        name + ": line " + line + ": is " + (end - start) / 1024 + " KiB long; plan reads lines "
                                + "of at most " + (MAX_LINE >> 10) + " KiB (no Kubernetes value is longer)");
            }
            start = end + 1;
        }
        var options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setCodePointLimit(MAX_BYTES);
        var constructor = new SafeConstructor(options) {
            {
                yamlConstructors.put(Tag.TIMESTAMP, new ConstructYamlStr());
            }
        };
        try {
            List<Object> documents = new ArrayList<>();
            new Yaml(constructor).loadAll(text).forEach(documents::add);
            requireBoundedExpansion(documents, text.length(), name);
            return documents;
        } catch (MarkedYAMLException e) {
            var mark = e.getProblemMark();
            throw new BadInput(name + ": not valid YAML: " + e.getProblem()
                    + (mark == null ? "" : " (line " + (mark.getLine() + 1) + ")"));
        } catch (YAMLException e) {
            throw new BadInput(name + ": not valid YAML: " + e.getMessage());
        }
    }

    /**
     * Aliases share what they name, so a few dozen can stand for billions of nodes ("billion laughs": 9 levels of 9
     * aliases are 387 million) that every later step would walk. The documents are walked once as those steps would,
     * counting nodes, and refused when they expand to more than {@link #EXPANSION} nodes per character of input:
     * ordinary anchors (a shared env list, say) stay far below it.
     */
    static void requireBoundedExpansion(List<Object> documents, int textLength, String name) throws BadInput {
        long limit = (long) EXPANSION * Math.max(textLength, 1000);
        long nodes = 0;
        java.util.ArrayDeque<Object> todo = new java.util.ArrayDeque<>();
        documents.stream().filter(java.util.Objects::nonNull).forEach(todo::push);
        while (!todo.isEmpty()) {
            Object node = todo.pop();
            if (++nodes > limit) {
                throw new BadInput(name + ": its aliases expand to more than " + limit + " nodes (" + EXPANSION
                        + " per "
                        + "character of input), as an alias bomb does; a manifest's anchors and aliases stay far below "
                        + "that. Write the repeated parts out, or remove the aliases");
            }
            if (node instanceof java.util.Map<?, ?> map) {
                map.forEach((k, v) -> {
                    if (k != null) {
                        todo.push(k);
                    }
                    if (v != null) {
                        todo.push(v);
                    }
                });
            } else if (node instanceof java.util.List<?> list) {
                list.stream().filter(java.util.Objects::nonNull).forEach(todo::push);
            }
        }
    }

    /** Where the first byte that cannot start or continue a UTF-8 sequence is (a linear scan). */
    private static int firstInvalid(byte[] b) {
        int i = 0;
        while (i < b.length) {
            int c = b[i] & 0xff;
            int more = c < 0x80 ? 0
                    : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
            if (more < 0) {
                return i;
            }
            for (int k = 1; k <= more; k++) {
                if (i + k >= b.length || (b[i + k] & 0xc0) != 0x80) {
                    return i;
                }
            }
            i += more + 1;
        }
        return Math.max(0, b.length - 1); // an overlong form or a surrogate: the decoder knows, not this scan
    }
}
