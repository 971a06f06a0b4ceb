package org.jrdma.tools.rping;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.tools.Main;
import org.jrdma.tools.ToolRun;

/**
 * A {@code jrdma} command on a thread of its own in this JVM whose output the test reads while
 * it runs (a StringWriter is synchronized), waits on with a deadline, and ends by interrupting
 * it — what {@link ToolRun} cannot do for a server that never ends by itself ({@code rping -s -P}).
 */
final class BackgroundRun {
    static final Duration WAIT = Duration.ofSeconds(60);
    private static final Pattern LISTENING = Pattern.compile("rping: listening on /[0-9.]+:(\\d+)");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final AtomicInteger code = new AtomicInteger(Integer.MIN_VALUE);
    private final Thread thread;

    private BackgroundRun(String... args) {
        thread = Thread.ofPlatform().name("background-" + args[0]).start(
                () -> code.set(Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true))));
    }

    static BackgroundRun start(String... args) {
        return new BackgroundRun(args);
    }

    String out() {
        return out.toString();
    }

    String err() {
        return err.toString();
    }

    /** Waits until stdout satisfies {@code condition}; fails naming {@code what} (and what was printed) at the deadline. */
    void awaitOut(String what, Predicate<String> condition) {
        await(what, () -> condition.test(out()));
    }

    void awaitErr(String what, Predicate<String> condition) {
        await(what, () -> condition.test(err()));
    }

    /** The port of an {@code rping -s -d} server, from its "listening on" line (so a test can give {@code -p 0}). */
    int listeningPort() {
        awaitOut("the listening line", s -> LISTENING.matcher(s).find());
        Matcher m = LISTENING.matcher(out());
        m.find();
        return Integer.parseInt(m.group(1));
    }

    /** Waits for the command to end by itself. */
    ToolRun awaitEnd() throws InterruptedException {
        if (!thread.join(WAIT)) {
            throw new AssertionError("still running after " + WAIT + ": " + this);
        }
        return new ToolRun(code.get(), out(), err());
    }

    /** Interrupts the command (a persistent server's ^C) and waits for it to end. */
    ToolRun stop() throws InterruptedException {
        thread.interrupt();
        return awaitEnd();
    }

    boolean running() {
        return thread.isAlive();
    }

    private void await(String what, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what + ": " + this);
            }
            LockSupport.parkNanos(1_000_000); // a poll of the condition, not a guess at how long it takes
        }
    }

    @Override
    public String toString() {
        return "--- out ---\n" + out() + "--- err ---\n" + err();
    }
}
