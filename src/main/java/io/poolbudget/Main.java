package io.poolbudget;

import io.poolbudget.cli.CalibrateCommand;
import io.poolbudget.cli.PlanCommand;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;
import java.util.Arrays;

/**
 * {@code java -jar quarkus-run.jar} runs the operator; {@code ... plan ...} runs the offline plan
 * command and {@code ... calibrate ...} the load sweep instead, before Quarkus starts: no cluster, no
 * HTTP server, no operator.
 */
@QuarkusMain
public class Main {
    public static void main(String... args) {
        if (args.length > 0 && args[0].equals("plan")) {
            System.exit(PlanCommand.run(Arrays.copyOfRange(args, 1, args.length), System.in, System.out, System.err));
        }
        if (args.length > 0 && args[0].equals("calibrate")) {
            System.exit(CalibrateCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err, System.getenv()));
        }
        Quarkus.run(args);
    }
}
