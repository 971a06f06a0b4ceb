package org.jrdma.tools;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code jrdma} command running on another thread whose output a test can wait on while it
 * runs (a server that prints the port it took), then its {@link ToolRun} once it ends.
 */
public final class LiveToolRun {
    private final Text out = new Text();
    private final Text err = new Text();
    private final CompletableFuture<Integer> code;

    private LiveToolRun(List<String> args) {
        code = CompletableFuture.supplyAsync(() -> Main.run(args.toArray(String[]::new), new PrintWriter(out, true),
                new PrintWriter(err, true)));
        code.whenComplete((c, e) -> {
            out.wake();
            err.wake();
        });
    }

    public static LiveToolRun start(List<String> args) {
        return new LiveToolRun(args);
    }

    /** Waits until standard output matches {@code regex} and returns its first group (or the whole match). */
    public String awaitOut(String regex, long seconds) throws InterruptedException {
        return out.await(Pattern.compile(regex), TimeUnit.SECONDS.toNanos(seconds), code);
    }

    /** Waits until standard error matches {@code regex}; returns the match. */
    public String awaitErr(String regex, long seconds) throws InterruptedException {
        return err.await(Pattern.compile(regex), TimeUnit.SECONDS.toNanos(seconds), code);
    }

    public ToolRun finish(long seconds) throws Exception {
        int c = code.get(seconds, TimeUnit.SECONDS);
        return new ToolRun(c, out.toString(), err.toString());
    }

    /** Text written so far; writers wake those waiting for a match. */
    private static final class Text extends Writer {
        private final StringBuilder text = new StringBuilder();

        @Override
        public synchronized void write(char[] cbuf, int off, int len) {
            text.append(cbuf, off, len);
            notifyAll();
        }

        synchronized void wake() {
            notifyAll();
        }

        synchronized String await(Pattern p, long nanos, CompletableFuture<Integer> running) throws InterruptedException {
            long deadline = System.nanoTime() + nanos;
            while (true) {
                Matcher m = p.matcher(text);
                if (m.find()) {
                    return m.groupCount() > 0 ? m.group(1) : m.group();
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || running.isDone()) {
                    throw new AssertionError("no match for /" + p + "/ " + (running.isDone() ? "before the command ended" : "in time")
                            + "; so far:\n" + text);
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }

        @Override
        public synchronized String toString() {
            return text.toString();
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
