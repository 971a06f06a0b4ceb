package org.jrdma.tools;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The one exit-code policy of every {@code jrdma} tool; {@link Main} installs its handlers, and
 * each command returns {@link #of} or throws — none picks a number of its own.
 *
 * <table>
 * <caption>code → meaning</caption>
 * <tr><th>code</th><th>meaning</th></tr>
 * <tr><td>{@value #OK}</td><td>the run did what was asked (and {@code --help}, {@code --version})</td></tr>
 * <tr><td>{@value #FAILURE}</td><td>the run failed, with one line {@code "jrdma <tool>: error: <cause>"}: any
 *     exception out of a command — no such device, a verbs error, the peer refused, died or sent
 *     garbage, a deadline ({@code --timeout-ms}) passed, a check or the authentication failed — or
 *     a result the command reports as failed (no device listed, a chaos cell not as expected).
 *     rdma-core's and perftest's tools exit 1 on any failure, the peer's and timeouts included,
 *     and the interop scripts compare only zero with non-zero, so these are not told apart.</td></tr>
 * <tr><td>{@value #USAGE}</td><td>the command line is wrong: picocli's parse errors and each command's own
 *     checks of its flags ({@link #usage}), as {@code "jrdma <tool>: <problem>"} and
 *     {@code "Try 'jrdma <tool> --help'."} — picocli's own code for it.</td></tr>
 * </table>
 * Run with {@code -Djrdma.debug=true} to get the stack trace of a failure as well.
 */
public final class ExitCodes {
    public static final int OK = CommandLine.ExitCode.OK;
    public static final int FAILURE = CommandLine.ExitCode.SOFTWARE;
    public static final int USAGE = CommandLine.ExitCode.USAGE;

    private ExitCodes() {
    }

    /** A command's result that is a success or a failure without an exception (no devices, a failed cell). */
    public static int of(boolean succeeded) {
        return succeeded ? OK : FAILURE;
    }

    /** A check of a flag that failed: thrown by a command, it ends the run with {@link #USAGE}. */
    public static CommandLine.ParameterException usage(CommandSpec spec, String problem) {
        return new CommandLine.ParameterException(spec.commandLine(), problem);
    }

    /** Makes {@code cl} (and its subcommands) end by this policy, printing to {@code err}. */
    static void install(CommandLine cl, PrintWriter err) {
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            err.println(cmd.getCommandSpec().qualifiedName() + ": error: " + Main.describe(e));
            if (Boolean.getBoolean("jrdma.debug")) {
                e.printStackTrace(err);
            }
            return FAILURE;
        });
        cl.setParameterExceptionHandler((e, args) -> {
            String name = e.getCommandLine().getCommandSpec().qualifiedName();
            err.println(name + ": " + e.getMessage());
            err.println("Try '" + name + " --help'.");
            return USAGE;
        });
    }
}
