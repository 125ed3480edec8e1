package io.poolbudget;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Issue 21, item 2: nothing but the word operator starts one; everything else prints usage or its own help. */
class MainTest {

    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            ''              | 2 | err | poolbudget: name a command
            --help          | 0 | out | Usage: poolbudget [-hV] [COMMAND]
            -h              | 0 | out | Usage: poolbudget [-hV] [COMMAND]
            plna            | 2 | err | poolbudget: Unmatched argument at index 0: 'plna'
            --verbose       | 2 | err | poolbudget: Unknown option: '--verbose'
            operator --help | 0 | out | Usage: poolbudget operator [-hV]
            version --help  | 0 | out | Usage: poolbudget version [-hV]
            """)
    void anythingButACommandPrintsUsageAndStartsNothing(String args, int exit, String stream, String text) {
        var out = new StringWriter();
        var err = new StringWriter();
        int code = Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute(args.isEmpty() ? new String[0] : args.split(" "));
        assertThat(code).isEqualTo(exit);
        assertThat((stream.equals("out") ? out : err).toString()).contains(text);
        if (exit == 2) {
            assertThat(err.toString()).contains("Commands:", "operator", "plan", "calibrate", "version");
        }
    }
}
