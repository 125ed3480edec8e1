package io.poolbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CalibrateCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return CalibrateCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of());
    }

    @Test
    void refusesToLoadADatabaseWithoutTheAcknowledgement() {
        assertThat(run("--jdbc-url", "jdbc:postgresql://db:5432/x", "--username", "u"))
                .isEqualTo(CalibrateCommand.BAD_INPUT);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("staging database", CalibrateCommand.ACK);
        assertThat(out.size()).isZero();
    }

    @Test
    void badArgumentsNameTheArgumentAndTheFix() {
        assertThat(run(CalibrateCommand.ACK, "--username", "u")).isEqualTo(CalibrateCommand.BAD_INPUT);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--jdbc-url is required");
        err.reset();
        assertThat(run(CalibrateCommand.ACK, "--jdbc-url", "jdbc:sqlserver://x;databaseName=y", "--username", "u"))
                .isEqualTo(CalibrateCommand.BAD_INPUT);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--jdbc-url must start with jdbc:postgresql:, "
                + "jdbc:mariadb: or jdbc:mysql:");
        err.reset();
        assertThat(
                run(CalibrateCommand.ACK, "--jdbc-url", "jdbc:postgresql://x/y", "--username", "u", "--levels", "4,0"))
                .isEqualTo(CalibrateCommand.BAD_INPUT);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("--levels must be a whole number from 1 to 100000, not '0'");
        err.reset();
        assertThat(run("--bogus")).isEqualTo(CalibrateCommand.BAD_INPUT);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown or incomplete argument '--bogus'", "Usage:");
    }

    @Test
    void theFleetAndTheCheckLoadAreCheckedBeforeTheDatabaseIsTouched() {
        String[] unreachable = {CalibrateCommand.ACK, "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/none", "--username",
                "u"};
        assertThat(run(concat(unreachable, "-f", "no-such-file.yaml"))).isEqualTo(CalibrateCommand.BAD_INPUT);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("no-such-file.yaml: no such file")
                .doesNotContain("database failed");
        err.reset();
        assertThat(run(concat(unreachable, "--check-load", "150"))).isEqualTo(CalibrateCommand.BAD_INPUT);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("--check-load must be a whole percentage from 0 to 100");
        err.reset();
        assertThat(run(concat(unreachable, "--repeats", "0"))).isEqualTo(CalibrateCommand.BAD_INPUT);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--repeats must be a whole number");
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void aDatabaseThatCannotBeReachedIsAFailureNotAStackTrace() {
        assertThat(run(CalibrateCommand.ACK, "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2",
                "--username", "u", "--levels", "1", "--seconds", "1")).isEqualTo(CalibrateCommand.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("calibrate: the database failed: ")
                .doesNotContain("\tat ");
    }
}
