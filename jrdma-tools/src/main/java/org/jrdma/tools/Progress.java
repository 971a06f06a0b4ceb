package org.jrdma.tools;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * One status line for a long run ({@code perf -D}, {@code perf -a}, {@code perf --run_infinitely},
 * {@code demo -n 100000}, {@code chaos}), redrawn in place with {@code \r} every half second
 * while the run measures, and erased before anything else is printed — so that the run's own
 * output is exactly what it is without it. Only on a terminal: when the output is piped or
 * redirected ({@link System#console()} is not a terminal) it draws nothing at all, and the
 * output is byte for byte the old one. {@code JRDMA_PROGRESS=on|off} (or
 * {@code -Djrdma.progress=on|off}, which wins) forces it either way, e.g. {@code on} to see it
 * through {@code tee}, or in a test.
 *
 * <p>The line is drawn by a daemon thread from {@code status}, which reads the run's counters
 * without locking (a count one iteration stale is fine for a glance); the run's thread prints
 * through {@link #print}, which erases the line first under the same lock, so the two never
 * interleave within a line.
 */
public final class Progress implements AutoCloseable {
    /** Seconds since a start, for a status line. */
    public interface Clock {
        double elapsedSeconds();
    }

    public static final String PROPERTY = "jrdma.progress";
    public static final String ENV = "JRDMA_PROGRESS";
    static final long PERIOD_MILLIS = 500;

    /** Drawing nothing: the piped case. */
    public static final Progress OFF = new Progress(null, null);

    private final PrintWriter out;
    private final Supplier<String> status;
    private final Thread ticker;
    private final long startNanos = System.nanoTime();
    private int drawn; // characters of the line on screen now, 0: none
    private boolean closed;

    private Progress(PrintWriter out, Supplier<String> status) {
        this.out = out;
        this.status = status;
        if (out == null) {
            ticker = null;
            return;
        }
        ticker = Thread.ofPlatform().daemon().name("jrdma-progress").unstarted(this::tick);
        ticker.start();
    }

    /** A line on {@code out} when it is a terminal (or forced on), else {@link #OFF}. */
    public static Progress start(PrintWriter out, Supplier<String> status) {
        return enabled() ? new Progress(out, status) : OFF;
    }

    /** The same, the status made with the line's own clock (seconds since it started). */
    public static Progress start(PrintWriter out, java.util.function.Function<Clock, Supplier<String>> status) {
        if (!enabled()) {
            return OFF;
        }
        long start = System.nanoTime();
        Clock clock = () -> (System.nanoTime() - start) / 1e9;
        return new Progress(out, status.apply(clock));
    }

    /** On a terminal, unless JRDMA_PROGRESS / jrdma.progress say otherwise. */
    public static boolean enabled() {
        String forced = System.getProperty(PROPERTY);
        if (forced == null) {
            forced = System.getenv(ENV);
        }
        if (forced != null && !forced.isBlank()) {
            return switch (forced.strip().toLowerCase(Locale.ROOT)) {
                case "on", "1", "true", "yes" -> true;
                default -> false;
            };
        }
        java.io.Console console = System.console();
        return console != null && console.isTerminal();
    }

    public boolean isOn() {
        return out != null;
    }

    /** Seconds since the start, for a status line. */
    public double elapsedSeconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** Erases the line, runs {@code printing} (the run's own output), flushes; the next tick draws the line again. */
    public void print(Runnable printing) {
        if (out == null) {
            printing.run();
            return;
        }
        synchronized (this) {
            erase();
            printing.run();
            out.flush();
        }
    }

    private void tick() {
        try {
            while (true) {
                Thread.sleep(PERIOD_MILLIS);
                synchronized (this) {
                    if (closed) {
                        return;
                    }
                    String line;
                    try {
                        line = status.get();
                    } catch (RuntimeException e) {
                        continue; // a counter read mid-change: skip this tick
                    }
                    if (line == null) {
                        continue;
                    }
                    String pad = drawn > line.length() ? " ".repeat(drawn - line.length()) : "";
                    out.print("\r" + line + pad);
                    out.flush();
                    drawn = line.length();
                }
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    private void erase() {
        if (drawn > 0) {
            out.print("\r" + " ".repeat(drawn) + "\r");
            drawn = 0;
        }
    }

    /** Stops drawing and erases the line: what follows is printed as without a progress line. */
    @Override
    public void close() {
        if (out == null) {
            return;
        }
        synchronized (this) {
            closed = true;
            erase();
            out.flush();
        }
        ticker.interrupt();
    }
}
