package io.poolbudget.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The user docs (docs/ and README.md) cut into what a statement lives in: a paragraph, a list item or a heading
 * (prose), a table row (with its table's header), or a fenced code block. Enough Markdown for the project's own pages.
 */
record DocUnits(Path file, int line, Kind kind, String text, List<String> header) {
    enum Kind {
        PROSE, ROW, CODE
    }

    private static final Pattern ITEM = Pattern.compile("^\\s*([-*]|\\d+\\.)\\s.*");
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.;!?])\\s+(?=[A-Z*`(\\[])");

    /** Every Markdown file under docs/, and README.md. */
    static List<DocUnits> all() {
        try (Stream<Path> docs = Files.walk(Path.of("docs"))) {
            List<DocUnits> units = new ArrayList<>(read(Path.of("README.md")));
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(p -> units.addAll(read(p)));
            return units;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<DocUnits> read(Path file) {
        try {
            return parse(file, Files.readAllLines(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<DocUnits> parse(Path file, List<String> lines) {
        List<DocUnits> units = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int start = 0;
        Kind open = null;
        List<String> header = null;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            boolean fence = l.strip().startsWith("```");
            if (open == Kind.CODE) {
                if (fence) {
                    units.add(new DocUnits(file, start + 1, Kind.CODE, text.toString(), List.of()));
                    text.setLength(0);
                    open = null;
                } else {
                    text.append(l).append('\n');
                }
                continue;
            }
            boolean row = l.strip().startsWith("|");
            boolean breaks = fence || row || l.isBlank() || l.startsWith("#") || ITEM.matcher(l).matches();
            if (breaks && open == Kind.PROSE) {
                units.add(new DocUnits(file, start + 1, Kind.PROSE, text.toString().strip(), List.of()));
                text.setLength(0);
                open = null;
            }
            if (fence) {
                open = Kind.CODE;
                start = i;
            } else if (row) {
                if (header == null) {
                    header = cells(l);
                } else if (!l.contains("---")) {
                    units.add(new DocUnits(file, i + 1, Kind.ROW, l, header));
                }
                continue;
            } else if (!l.isBlank()) {
                if (open == null) {
                    open = Kind.PROSE;
                    start = i;
                }
                text.append(l.strip()).append(' ');
            }
            header = null;
        }
        if (open == Kind.PROSE) {
            units.add(new DocUnits(file, start + 1, Kind.PROSE, text.toString().strip(), List.of()));
        }
        return units;
    }

    /** A table row's cells, without the outer pipes. */
    static List<String> cells(String row) {
        String s = row.strip();
        s = s.substring(1, s.endsWith("|") ? s.length() - 1 : s.length());
        return Arrays.stream(s.split("\\|", -1)).map(String::strip).toList();
    }

    /** Its sentences (a table row is one). */
    List<String> sentences() {
        return kind == Kind.PROSE ? Arrays.asList(SENTENCE_END.split(text)) : List.of(text);
    }

    /** Where it is, for a failure message. */
    String where() {
        return file + ":" + line;
    }
}
