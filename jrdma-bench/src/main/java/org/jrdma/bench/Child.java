package org.jrdma.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child process with its output captured line by line, waited for with deadlines, and
 * killed (with its descendants) when it overstays or the runner exits. Every child is known
 * to {@link Children} until closed.
 */
public final class Child implements AutoCloseable {
    private static final int MAX_LINES = 2_000;

    private final String name;
    private final Process process;
    private final List<String> out = new ArrayList<>();
    private final List<String> err = new ArrayList<>();
    private final Thread outReader;
    private final Thread errReader;
    private boolean outEnded;

    private Child(String name, Process process) {
        this.name = name;
        this.process = process;
        this.outReader = reader(process.getInputStream(), out, true);
        this.errReader = reader(process.getErrorStream(), err, false);
    }

    /** Starts the command in the current directory, without the given environment variables. */
    public static Child start(String name, List<String> command, Set<String> unsetEnv) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
        pb.environment().keySet().removeAll(unsetEnv);
        Child c = new Child(name, pb.start());
        if (!Children.register(c)) {
            c.kill();
            throw new IOException("not starting " + name + ": the runner is exiting");
        }
        return c;
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    private Thread reader(InputStream in, List<String> lines, boolean isOut) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (this) {
                        if (lines.size() == MAX_LINES) {
                            lines.remove(MAX_LINES / 2); // keep the beginning and the end
                        }
                        lines.add(line);
                        notifyAll();
                    }
                }
            } catch (IOException closed) {
                // the process went away; what was read stays
            } finally {
                if (isOut) {
                    synchronized (this) {
                        outEnded = true;
                        notifyAll();
                    }
                }
            }
        }, "bench-" + name + (isOut ? "-out" : "-err"));
        t.setDaemon(true);
        t.start();
        return t;
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    /**
     * Waits for a line of standard output that matches, until the deadline ({@link System#nanoTime}
     * based) or until standard output ends; empty in those two cases.
     */
    public Optional<String> awaitLine(Predicate<String> match, long deadlineNanos) throws InterruptedException {
        int seen = 0;
        synchronized (this) {
            while (true) {
                for (; seen < out.size(); seen++) {
                    if (match.test(out.get(seen))) {
                        return Optional.of(out.get(seen));
                    }
                }
                long left = deadlineNanos - System.nanoTime();
                if (outEnded || left <= 0) {
                    return Optional.empty();
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }
    }

    /** Waits for the process to exit and its output to be read; false at the deadline. */
    public boolean awaitExit(long deadlineNanos) throws InterruptedException {
        if (!process.waitFor(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            return false;
        }
        outReader.join(2_000);
        errReader.join(2_000);
        return true;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public int exitValue() {
        return process.exitValue();
    }

    public synchronized List<String> stdout() {
        return List.copyOf(out);
    }

    public synchronized List<String> stderr() {
        return List.copyOf(err);
    }

    /**
     * "exit 1: <why>", short enough for a table cell: the first line of stderr that names an
     * error or exception, else its first line, else the last line of stdout.
     */
    public String exitReason() {
        List<String> e = stderr().stream().filter(l -> !l.isBlank()).toList();
        List<String> o = stdout();
        String why = e.stream().filter(l -> l.toLowerCase(java.util.Locale.ROOT).matches(".*(error|exception|unmatched|unknown).*"))
                .findFirst().orElse(!e.isEmpty() ? e.getFirst() : !o.isEmpty() ? o.getLast() : "");
        String reason = "exit " + exitValue() + (why.isBlank() ? "" : ": " + why.strip());
        return reason.length() > 120 ? reason.substring(0, 117) + "..." : reason;
    }

    /** Kills the process and everything it started, and waits briefly for it to go. */
    public void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
        Children.unregister(this);
    }
}
