package io.poolbudget.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Defaults for every HikariCP pool the application builds, through HikariCP's own {@code hikaricp.configurationFile}
 * (read by every {@code HikariConfig} it constructs, before the application's settings): {@code registerMbeans}, so the
 * agent finds the pool, and where a size is published, {@code maximumPoolSize} and {@code minimumIdle}, so a new pod
 * starts at the current size rather than the framework's default. A file the user already named is kept: its
 * properties are copied first and ours added only where it says nothing.
 */
final class HikariDefaults {
    static final String PROPERTY = "hikaricp.configurationFile";

    private HikariDefaults() {}

    static Path install(Integer size, Path dir) throws IOException {
        Properties props = new Properties();
        String theirs = System.getProperty(PROPERTY);
        if (theirs != null) { // a file, or as HikariCP also allows, a resource on the class path
            try (InputStream in = Files.exists(Path.of(theirs)) ? Files.newInputStream(Path.of(theirs))
                    : ClassLoader.getSystemResourceAsStream(theirs.startsWith("/") ? theirs.substring(1) : theirs)) {
                if (in == null) {
                    throw new IOException("hikaricp.configurationFile " + theirs + " is neither a file nor a resource");
                }
                props.load(in);
            }
        }
        props.putIfAbsent("registerMbeans", "true");
        if (size != null) {
            props.putIfAbsent("maximumPoolSize", Integer.toString(size));
            props.putIfAbsent("minimumIdle", Integer.toString(size));
        }
        Path file = dir.resolve("hikari.properties");
        try (OutputStream out = Files.newOutputStream(file)) {
            props.store(out, "written by poolbudget-agent");
        }
        System.setProperty(PROPERTY, file.toString());
        return file;
    }

    /** A new size for pools built from now on; a file that cannot be written leaves them to the resizer. */
    static void update(Path file, int size) {
        Properties props = new Properties();
        try {
            try (InputStream in = Files.newInputStream(file)) {
                props.load(in);
            }
            props.put("maximumPoolSize", Integer.toString(size));
            props.put("minimumIdle", Integer.toString(size));
            Path next = file.resolveSibling(file.getFileName() + ".next");
            try (OutputStream out = Files.newOutputStream(next)) {
                props.store(out, "written by poolbudget-agent");
            }
            Files.move(next, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.err.println("poolbudget-agent: could not update " + file + " for new pools: " + e);
        }
    }
}
