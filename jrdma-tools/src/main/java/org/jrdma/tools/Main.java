package org.jrdma.tools;

import java.io.PrintWriter;
import java.util.function.Consumer;
import org.jrdma.tools.demo.DemoCommand;
import org.jrdma.verbs.ProviderChoice;
import org.jrdma.verbs.VerbsException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code jrdma} command. One exit-code policy for every subcommand (as jbang's
 * BaseCommand does): 0 success, 1 failure (a one-line error naming the cause), 2 usage.
 */
@Command(name = "jrdma", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "RDMA for the JVM: verbs, a soft RoCEv2 provider and the bootstrap, in Java 25.",
        subcommands = {DemoCommand.class, org.jrdma.tools.pingpong.PingpongCommand.class, org.jrdma.tools.perf.PerfCommand.class, org.jrdma.tools.chaos.ChaosCommand.class, org.jrdma.tools.rping.RpingCommand.class, DevicesCommand.class, DevinfoCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILURE = 1;
    public static final int EXIT_USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * {@code --provider}, on every tool (inherited: {@code jrdma devices --provider soft}): the
     * same choice as JRDMA_PROVIDER, made for this run by setting {@code jrdma.provider}, which
     * wins over the environment — so everything that lists devices in this process (the
     * connection manager too) sees it. {@link #run} puts the property back afterwards.
     */
    @CommandLine.Option(names = "--provider", paramLabel = "auto|soft|native", scope = CommandLine.ScopeType.INHERIT,
            converter = ProviderMode.class,
            description = "Whose devices to use: auto (native's when there are any, else soft's), soft or native;"
                    + " overrides JRDMA_PROVIDER for this run (default: JRDMA_PROVIDER, else auto).")
    void provider(ProviderChoice.Mode mode) {
        System.setProperty(ProviderChoice.PROPERTY, mode.text());
    }

    /** {@code --provider}'s value; a wrong one is a usage error of the tool it was given to. */
    static final class ProviderMode implements CommandLine.ITypeConverter<ProviderChoice.Mode> {
        @Override
        public ProviderChoice.Mode convert(String value) {
            try {
                return ProviderChoice.Mode.parse(value, "--provider");
            } catch (VerbsException e) {
                throw new CommandLine.TypeConversionException("unknown provider '" + value + "'; use auto, soft or native");
            }
        }
    }

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line with the given output streams; returns the exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            String name = cmd.getCommandSpec().qualifiedName();
            err.println(name + ": error: " + describe(e));
            if (Boolean.getBoolean("jrdma.debug")) {
                e.printStackTrace(err);
            }
            return EXIT_FAILURE;
        });
        cl.setParameterExceptionHandler((e, a) -> {
            err.println(e.getCommandLine().getCommandSpec().qualifiedName() + ": " + e.getMessage());
            err.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            return EXIT_USAGE;
        });
        String provider = System.getProperty(ProviderChoice.PROPERTY); // --provider is for this run only
        try {
            return cl.execute(args);
        } finally {
            if (provider == null) {
                System.clearProperty(ProviderChoice.PROPERTY);
            } else {
                System.setProperty(ProviderChoice.PROPERTY, provider);
            }
        }
    }

    /**
     * Where a tool says something on stderr that is neither its result nor its error — a client
     * retrying until its deadline, say — as one line, {@code "jrdma <tool>: …"}, flushed at once.
     */
    public static Consumer<String> notices(CommandLine.Model.CommandSpec spec) {
        PrintWriter err = spec.commandLine().getErr();
        String name = spec.qualifiedName();
        return line -> {
            err.println(name + ": " + line);
            err.flush();
        };
    }

    /** An exception as the one line a tool ends with: its message, or its kind when it has none. */
    public static String describe(Throwable e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Reports the version from the jar manifest when there is one. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"jrdma " + (v == null ? "0.1.0-SNAPSHOT" : v) + " (Java " + Runtime.version() + ")"};
        }
    }
}
