package org.jrdma.tools;

import java.io.PrintWriter;
import java.util.function.Consumer;
import org.jrdma.tools.demo.DemoCommand;
import org.jrdma.tools.options.ProviderOption;
import org.jrdma.verbs.ProviderChoice;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code jrdma} command: the tools as its subcommands, {@code --provider} on all of them,
 * and one exit-code policy for every one ({@link ExitCodes}: 0 success, 1 failure with a
 * one-line error naming the cause, 2 usage).
 */
@Command(name = "jrdma", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "RDMA for the JVM: verbs, a soft RoCEv2 provider and the bootstrap, in Java 25.",
        subcommands = {DemoCommand.class, org.jrdma.tools.pingpong.PingpongCommand.class, org.jrdma.tools.perf.PerfCommand.class, org.jrdma.tools.chaos.ChaosCommand.class, org.jrdma.tools.rping.RpingCommand.class, org.jrdma.tools.mesh.MeshCommand.class, DevicesCommand.class, DevinfoCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    ProviderOption provider;

    public static void main(String[] args) {
        plainLogLines();
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    private static final String LOG_FORMAT = "java.util.logging.SimpleFormatter.format";

    /**
     * The libraries say what they have to say (an impairment's replay line, a device that
     * failed, rate-limited drop warnings) through System.Logger, which java.util.logging prints
     * on stderr in two lines with a timestamp and the caller; the tools print each as the one
     * line it is ("jrdma-soft rxe0: impairing outgoing packets: …"), unless the user configured
     * java.util.logging.
     */
    static void plainLogLines() {
        if (System.getProperty(LOG_FORMAT) == null && System.getProperty("java.util.logging.config.file") == null
                && System.getProperty("java.util.logging.config.class") == null) {
            System.setProperty(LOG_FORMAT, "%5$s%6$s%n");
        }
    }

    /** Runs the command line with the given output streams; returns the exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(out);
        cl.setErr(err);
        ExitCodes.install(cl, err);
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

    /**
     * Reports the version: the module's (the compiler records the project version in the
     * descriptor; a named module's packages do not read the manifest), else the jar manifest's
     * Implementation-Version (the single jar, on the class path).
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            Module m = Main.class.getModule();
            String v = m.isNamed() ? m.getDescriptor().rawVersion().orElse(null) : null;
            if (v == null) {
                v = Main.class.getPackage().getImplementationVersion();
            }
            return new String[] {"jrdma " + (v == null ? "0.1.0-SNAPSHOT" : v) + " (Java " + Runtime.version() + ")"};
        }
    }
}
