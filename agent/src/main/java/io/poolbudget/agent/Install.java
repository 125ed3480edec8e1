package io.poolbudget.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The init container's command ({@code java -cp /poolbudget/agent.jar io.poolbudget.agent.Install /poolbudget-agent}):
 * copies this jar into the pod's shared volume, where the application's JVM loads it. The image needs a JVM and
 * nothing else (no shell, no {@code cp}).
 */
public final class Install {
    static final String JAR = "poolbudget-agent.jar";

    private Install() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: Install <directory to copy " + JAR + " into>");
            System.exit(2);
        }
        Path self = Path.of(Install.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = Files.createDirectories(Path.of(args[0]));
        Path tmp = dir.resolve(JAR + ".tmp");
        Files.copy(self, tmp, StandardCopyOption.REPLACE_EXISTING);
        Files.move(tmp, dir.resolve(JAR), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        System.out.println("poolbudget-agent: copied " + self + " to " + dir.resolve(JAR));
    }
}
