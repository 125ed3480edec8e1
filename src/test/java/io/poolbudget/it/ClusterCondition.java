package io.poolbudget.it;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * Skips cluster ITs, with the reason, when {@code -Dcluster=k3s} is asked for and no Docker engine
 * answers, and the *E2E classes under {@code -DskipE2E}. Register with {@code @ExtendWith(ClusterCondition.class)}.
 */
public class ClusterCondition implements ExecutionCondition {
    private static Boolean dockerAvailable;

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (Boolean.getBoolean("poolbudget.skipE2E")
                && context.getTestClass().map(c -> c.getSimpleName().endsWith("E2E")).orElse(false)) {
            return ConditionEvaluationResult.disabled("skipped: -DskipE2E leaves the end-to-end tier out (its real "
                    + "node needs root); run without it for real pods and PostgreSQL");
        }
        if (!"k3s".equals(System.getProperty("poolbudget.cluster"))) {
            return ConditionEvaluationResult.enabled("the local KWOK cluster is used");
        }
        if (dockerAvailable()) {
            return ConditionEvaluationResult.enabled("a Docker engine answers; k3s runs in Testcontainers");
        }
        String reason = "skipped: -Dcluster=k3s needs a Docker engine and none answers on this machine "
                + "(no DOCKER_HOST, no /var/run/docker.sock, or it does not respond); "
                + "run without -Dcluster=k3s to use the local KWOK cluster";
        System.err.println(context.getDisplayName() + " " + reason);
        return ConditionEvaluationResult.disabled(reason);
    }

    private static synchronized boolean dockerAvailable() {
        if (dockerAvailable == null) {
            boolean configured = System.getenv("DOCKER_HOST") != null || Files.exists(Path.of("/var/run/docker.sock"));
            dockerAvailable = configured && DockerClientFactory.instance().isDockerAvailable();
        }
        return dockerAvailable;
    }
}
