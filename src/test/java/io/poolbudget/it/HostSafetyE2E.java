package io.poolbudget.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.install.ChartTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, item 5: the real node does not start beside another container runtime or kubelet (a developer's Docker,
 * kind or k3s), whose fixed paths, chain names and ports it would share. A process named containerd that is not the
 * node's own makes {@code node.sh check} (the preflight {@code node.sh up} runs) refuse, naming its pid; once it is
 * gone the check passes. (That teardown leaves another runtime's pods and files alone is checked by
 * hack/cluster/host-sentinel.sh around the whole E2E tier.)
 */
@ClusterTest
@OutsideTheLane // no operator, no cluster object: it checks the host scripts
class HostSafetyE2E {

    @Test
    void theRealNodeRefusesToStartBesideAnotherRuntime() throws Exception {
        Path dir = Files.createTempDirectory("poolbudget-foreign");
        Path fake = Files.copy(Path.of("/usr/bin/sleep"), dir.resolve("containerd"),
                StandardCopyOption.COPY_ATTRIBUTES);
        Process other = new ProcessBuilder(fake.toString(), "120").start();
        try {
            var refused = ChartTools.run(List.of("hack/cluster/node.sh", "check"));
            System.out.println("HostSafetyE2E: " + refused.output().strip());
            assertThat(refused.exit()).as(refused.output()).isEqualTo(1);
            assertThat(refused.output()).contains("another container runtime or kubelet runs on this machine (pid "
                    + other.pid() + ": " + fake).contains("Fix: run the real node on a machine or VM of its own");
        } finally {
            other.destroyForcibly().waitFor();
            Files.deleteIfExists(fake);
            Files.deleteIfExists(dir);
        }
        var passes = ChartTools.run(List.of("hack/cluster/node.sh", "check"));
        assertThat(passes.exit()).as("with the other runtime gone: " + passes.output()).isZero();
    }
}
