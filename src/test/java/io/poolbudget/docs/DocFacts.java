package io.poolbudget.docs;

import io.poolbudget.api.v1alpha1.InjectionSpec;
import io.poolbudget.api.v1alpha1.Preset;
import io.poolbudget.decide.Injection;
import io.poolbudget.observe.Dialect;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The checks {@code DocsFactsTest} runs over the docs: each returns what a page states wrongly, where, and what the
 * code says instead. The forms they read: a table row about a preset, a {@code preset: x # VARIABLES} comment in a YAML
 * block, "`x` counts N" or "`x` ... default N", "HikariCP's N" or "N for Agroal" in a sentence about defaults, the
 * default "with explicit variable names", any variable named like a preset's, and any list of the servers observe
 * reads (or of the jdbcUrl prefixes it takes).
 */
final class DocFacts {
    private static final Pattern PRESET = Pattern.compile("`([a-z][a-z0-9-]*)`");
    private static final Pattern VARIABLE = Pattern.compile("`(_?[A-Z][A-Za-z0-9<>]*_[A-Za-z0-9_<>]*)`");
    private static final Pattern CLAIM = Pattern.compile(
            "\\b(?:counts|assumes|defaults?(?: to| of| is)?:?)\\s+(?:at\\s+)?(\\d+|no limit)\\b");
    private static final Pattern STACK_CLAIM = Pattern.compile(
            "\\b([A-Z][A-Za-z]+)'s? (?:default (?:of )?)?(\\d+)\\b|\\b(\\d+|no limit) for ([A-Z][A-Za-z]+)\\b");
    private static final Pattern OWN_NAMES_CLAIM = Pattern.compile(
            "\\b(\\d+)(?:, the default assumed)? with (?:explicit|your own) variable names|\\b(?:not|from) (\\d+)\\b");
    private static final Pattern YAML_PRESET = Pattern.compile("preset:\\s*([a-z0-9-]+)[^#\\n]*#([^\\n]*)");

    static List<String> presetRows(List<DocUnits> docs) {
        List<String> wrong = new ArrayList<>();
        for (DocUnits row : of(docs, DocUnits.Kind.ROW)) {
            List<String> cells = DocUnits.cells(row.text());
            Preset p = preset(cells.get(0).replace("`", ""));
            if (p == null) {
                continue;
            }
            for (int i = 1; i < Math.min(cells.size(), row.header().size()); i++) {
                String column = row.header().get(i);
                if ((column.contains("default") || column.contains("may open")) && !isDefault(p, cells.get(i))) {
                    wrong.add(row.where() + ": " + p.value() + "'s default is " + p.appDefault().describe()
                            + ", not " + cells.get(i));
                }
            }
            variables(row.text()).filter(v -> !readBy(p, v)).forEach(v -> wrong.add(row.where() + ": "
                    + p.value() + " does not read " + v + " (it reads " + names(p) + ")"));
        }
        return wrong;
    }

    static List<String> presetDefaultsInProse(List<DocUnits> docs) {
        List<String> wrong = new ArrayList<>();
        for (DocUnits unit : of(docs, DocUnits.Kind.PROSE)) {
            for (String sentence : unit.sentences()) {
                Matcher m = PRESET.matcher(sentence);
                List<int[]> mentions = new ArrayList<>();
                while (m.find()) {
                    if (preset(m.group(1)) != null) {
                        mentions.add(new int[]{m.start(), m.end()});
                    }
                }
                for (int i = 0; i < mentions.size(); i++) {
                    Preset p = preset(sentence.substring(mentions.get(i)[0] + 1, mentions.get(i)[1] - 1));
                    String after = sentence.substring(mentions.get(i)[1], i + 1 < mentions.size()
                            ? mentions.get(i + 1)[0] : sentence.length());
                    Matcher claim = CLAIM.matcher(after);
                    if (claim.find() && !isDefault(p, claim.group(1))) {
                        wrong.add(unit.where() + ": `" + p.value() + "`" + after.substring(0, claim.end())
                                + ": its default is " + p.appDefault().describe());
                    }
                }
            }
        }
        return wrong;
    }

    static List<String> stackDefaults(List<DocUnits> docs) {
        List<String> wrong = new ArrayList<>();
        for (DocUnits unit : docs) {
            for (String sentence : unit.kind() == DocUnits.Kind.CODE ? List.<String>of() : unit.sentences()) {
                Matcher m = STACK_CLAIM.matcher(sentence);
                while (sentence.contains("default") && m.find()) {
                    String stack = m.group(1) != null ? m.group(1) : m.group(4);
                    String value = m.group(1) != null ? m.group(2) : m.group(3);
                    List<Preset> of = Arrays.stream(Preset.values()).filter(p -> words(p.stack()).contains(stack))
                            .toList();
                    // a pooler's other default: the clients it accepts
                    boolean clients = sentence.contains("max_client_conn") && of.stream().anyMatch(Preset::pooler);
                    if (!of.isEmpty() && (clients ? !value.equals(Integer.toString(Preset.PGBOUNCER_MAX_CLIENT_CONN))
                            : of.stream().noneMatch(p -> isDefault(p, value)))) {
                        wrong.add(unit.where() + ": " + m.group() + ": the presets of " + stack + " default to "
                                + of.stream().map(p -> p.appDefault().describe()).distinct().toList()
                                + (clients ? ", " + Preset.PGBOUNCER_MAX_CLIENT_CONN + " clients" : ""));
                    }
                }
            }
        }
        return wrong;
    }

    static List<String> ownNamesDefault(List<DocUnits> docs) {
        int own = Injection.appDefault(new InjectionSpec());
        List<String> wrong = new ArrayList<>();
        for (DocUnits unit : docs) {
            for (String sentence : unit.kind() == DocUnits.Kind.CODE ? List.<String>of() : unit.sentences()) {
                Matcher m = OWN_NAMES_CLAIM.matcher(sentence);
                while ((sentence.contains("variable names") || sentence.contains("appDefaultPoolSize")) && m.find()) {
                    String value = Objects.requireNonNullElse(m.group(1), m.group(2));
                    if (Integer.parseInt(value) != own) {
                        wrong.add(unit.where() + ": " + m.group() + ": with variable names of your own it is " + own);
                    }
                }
            }
        }
        return wrong;
    }

    static List<String> presetVariables(List<DocUnits> docs) {
        List<String> wrong = new ArrayList<>();
        for (DocUnits unit : docs) {
            if (unit.kind() == DocUnits.Kind.CODE) {
                continue;
            }
            variables(unit.text()).filter(v -> !known(v)).filter(v -> Arrays.stream(Preset.values())
                    .anyMatch(p -> names(p).stream().anyMatch(n -> v.startsWith(stem(p, n)))))
                    .forEach(v -> wrong.add(unit.where() + ": " + v + " is read by no preset"));
        }
        return wrong;
    }

    static List<String> yamlComments(List<DocUnits> docs) {
        Set<String> live = Arrays.stream(Preset.values()).filter(Preset::live).map(Preset::value)
                .collect(Collectors.toCollection(TreeSet::new));
        List<String> wrong = new ArrayList<>();
        for (DocUnits block : of(docs, DocUnits.Kind.CODE)) {
            Matcher m = YAML_PRESET.matcher(block.text());
            while (m.find()) {
                Preset p = preset(m.group(1));
                String comment = m.group(2);
                Stream.of(comment.split("[\\s,()]+")).filter(w -> w.matches("(\\.\\.\\.)?[A-Z_][A-Z0-9_]*")
                        && w.contains("_")).map(w -> w.replace("...", "")).filter(v -> p == null || !readBy(p, v))
                        .forEach(v -> wrong.add(block.where() + ": " + m.group(1) + " does not read " + v));
                Set<String> listed = Stream.concat(Stream.of(m.group(1)), Stream.of(comment.split("[\\s,]+"))
                        .filter(w -> preset(w) != null)).collect(Collectors.toCollection(TreeSet::new));
                if (block.text().contains("resize: Live") && listed.size() > 1 && !listed.equals(live)) {
                    wrong.add(block.where() + ": the presets resized Live are " + live + ", not " + listed);
                }
            }
        }
        return wrong;
    }

    static List<String> servers(List<DocUnits> docs) {
        List<String> names = Dialect.servers().stream().map(Dialect.Server::name).toList();
        List<String> prefixes = Dialect.servers().stream().map(Dialect.Server::urlPrefix).toList();
        String name = String.join("|", names);
        Pattern list = Pattern.compile("\\b(?:" + name + ")(?:(?:,? (?:or|and) |, |/)(?:" + name + "))+\\b");
        Pattern only = Pattern.compile("\\b(?:" + name + ")[ -]only\\b|\\bonly (?:" + name + ")\\b");
        List<String> wrong = new ArrayList<>();
        for (DocUnits unit : docs) {
            String text = unit.text();
            if (prefixes.stream().anyMatch(p -> text.contains("`" + p + "`"))
                    && !prefixes.stream().allMatch(text::contains)) {
                wrong.add(unit.where() + ": a jdbcUrl may start with any of " + prefixes);
            }
            if (unit.file().endsWith("development.md") || unit.file().endsWith("benchmarks.md")) {
                continue; // what a run used, not what the operator reads
            }
            Matcher m = list.matcher(text);
            while (m.find()) {
                if (m.group().contains(names.get(0)) && !names.stream().allMatch(m.group()::contains)) {
                    wrong.add(unit.where() + ": " + m.group() + ": observe reads " + names);
                }
            }
            if (only.matcher(text).find() && text.matches("(?s).*(observ|jdbcUrl).*")) {
                wrong.add(unit.where() + ": observe reads " + names);
            }
        }
        return wrong;
    }

    private static List<DocUnits> of(List<DocUnits> docs, DocUnits.Kind kind) {
        return docs.stream().filter(u -> u.kind() == kind).toList();
    }

    private DocFacts() {}

    private static Preset preset(String value) {
        return Arrays.stream(Preset.values()).filter(p -> p.value().equals(value)).findFirst().orElse(null);
    }

    private static boolean isDefault(Preset p, String stated) {
        String s = stated.replace("`", "").strip();
        return s.equals(p.appDefault().describe()) || s.equals(Objects.toString(p.appDefault().pools(), "no limit"));
    }

    private static Stream<String> variables(String text) {
        return VARIABLE.matcher(text).results().map(r -> r.group(1)).filter(v -> v.equals(v.toUpperCase())
                || v.contains("__"));
    }

    /** Its variables' names, as Preset writes them ({DS} where a datasource's name goes). */
    private static List<String> names(Preset p) {
        var k = p.knobs();
        return k.url() ? List.of() : Stream.of(k.max(), k.min(), k.initial()).filter(Objects::nonNull).toList();
    }

    /** Whether {@code v} is one of its variables, for any datasource (or written `<DS>_`), or the end of one. */
    private static boolean readBy(Preset p, String v) {
        return names(p).stream().anyMatch(n -> {
            String any = Pattern.quote(n).replace(Preset.DATASOURCE, "\\E(?:<DS>_|[A-Z0-9_]+_)?\\Q");
            return v.matches(any) || v.startsWith("_") && n.replace(Preset.DATASOURCE, "").endsWith(v);
        });
    }

    /** What every variable of a preset's family starts with: the part before a datasource's name, or two words. */
    private static String stem(Preset p, String name) {
        int ds = name.indexOf(Preset.DATASOURCE);
        if (ds >= 0) {
            return name.substring(0, ds);
        }
        Matcher two = Pattern.compile("^[A-Za-z0-9]+_+[A-Za-z0-9]+").matcher(name);
        return two.find() ? two.group() : name;
    }

    /** Variables the code names beside the presets': the operator's ConfigMap keys, the poolers' client limit. */
    private static boolean known(String v) {
        return v.equals(Injection.MAX_KEY) || v.equals(Injection.MIN_KEY) || Preset.CLIENT_LIMIT_ENV.contains(v)
                || Arrays.stream(Preset.values()).anyMatch(p -> readBy(p, v));
    }

    /** The capitalised words of a preset's stack (HikariCP, Agroal, Quarkus...). */
    private static Set<String> words(String stack) {
        return Pattern.compile("\\b[A-Z][a-z][A-Za-z]*\\b").matcher(stack).results().map(r -> r.group())
                .collect(Collectors.toSet());
    }
}
