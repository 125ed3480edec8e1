package io.poolbudget;

import io.poolbudget.cli.CalibrateCommand;
import io.poolbudget.cli.PlanCommand;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * The program's commands, parsed by picocli before anything else starts: {@code operator} runs the
 * operator (Quarkus, the cluster connection, leader election); {@code plan} and {@code calibrate}
 * run offline and never touch a cluster; {@code version} prints the version. No argument, an
 * unknown word or a typo prints the usage and exits 2 without connecting anywhere: nothing starts an
 * operator by accident. The image and the chart run {@code operator} explicitly.
 */
@QuarkusMain
public class Main {
    public static final int USAGE = 2;

    @Command(name = "poolbudget", mixinStandardHelpOptions = true, versionProvider = Version.class, description = "Keeps application connection pools from oversubscribing their databases.", subcommands = {
            Operator.class, Plan.class, Calibrate.class, VersionCommand.class})
    static final class Root implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().getErr().println("poolbudget: name a command");
            spec.commandLine().usage(spec.commandLine().getErr());
            return USAGE;
        }
    }

    @Command(name = "operator", mixinStandardHelpOptions = true, description = "Run the operator against the current cluster (in-cluster config or KUBECONFIG).")
    static final class Operator implements Callable<Integer> {
        @Unmatched
        String[] quarkusArgs = {};

        @Override
        public Integer call() {
            Quarkus.run(quarkusArgs);
            return 0;
        }
    }

    /** Its own options and --help are PlanCommand's: every argument after the word goes to it as it is. */
    @Command(name = "plan", description = "Preview the pool sizes for PoolPolicy and workload manifests, offline "
            + "(plan --help).")
    static final class Plan implements Callable<Integer> {
        @Unmatched
        String[] args = {};
        InputStream in = System.in;
        PrintStream out = System.out;
        PrintStream err = System.err;

        @Override
        public Integer call() {
            return PlanCommand.run(args, in, out, err);
        }
    }

    @Command(name = "calibrate", description = "Find a database's connection knee with a load sweep "
            + "(calibrate --help).")
    static final class Calibrate implements Callable<Integer> {
        @Unmatched
        String[] args = {};

        @Override
        public Integer call() {
            return CalibrateCommand.run(args, System.out, System.err, System.getenv());
        }
    }

    @Command(name = "version", mixinStandardHelpOptions = true, description = "Print the version.")
    static final class VersionCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().getOut().println("poolbudget " + Version.current());
            return 0;
        }
    }

    /** The version Maven wrote into the jar (src/main/resources-filtered). */
    static final class Version implements CommandLine.IVersionProvider {
        static String current() {
            try (var in = Main.class.getResourceAsStream("/poolbudget-version.properties")) {
                var p = new Properties();
                if (in != null) {
                    p.load(in);
                }
                return p.getProperty("version", "(unknown: not run from the built jar)");
            } catch (java.io.IOException e) {
                return "(unknown: " + e.getMessage() + ")";
            }
        }

        @Override
        public String[] getVersion() { return new String[]{"poolbudget " + current()}; }
    }

    /** The command line as the program parses it, writing to these streams (tests use their own). */
    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        var cl = new CommandLine(new Root());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExitCodeExceptionMapper(e -> USAGE);
        cl.setParameterExceptionHandler((e, args) -> {
            var c = e.getCommandLine();
            c.getErr().println("poolbudget: " + e.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(e, c.getErr());
            c.usage(c.getErr());
            return USAGE;
        });
        return cl;
    }

    public static void main(String... args) {
        int exit = commandLine(new PrintWriter(System.out, true), new PrintWriter(System.err, true)).execute(args);
        if (!(args.length > 0 && args[0].equals("operator") && exit == 0)) {
            System.exit(exit);
        }
    }

}
