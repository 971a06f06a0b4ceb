package org.jrdma.tools.rping;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * What a child process prints (stdout and stderr merged), read as it comes by a thread of its
 * own, so a test can wait, with a deadline, for the line that says a state was reached.
 */
final class ChildOutput {
    private final StringBuffer text = new StringBuffer();
    private final Process process;

    ChildOutput(Process process) {
        this.process = process;
        Thread.ofPlatform().daemon(true).name("child-output-" + process.pid()).start(this::read);
    }

    private void read() {
        byte[] buf = new byte[4096];
        try (InputStream in = process.getInputStream()) {
            for (int n; (n = in.read(buf)) > 0; ) {
                text.append(new String(buf, 0, n, StandardCharsets.UTF_8));
            }
        } catch (IOException closed) {
            // the process ended
        }
    }

    String text() {
        return text.toString();
    }

    /** Waits until the output satisfies {@code condition}; fails naming {@code what} at the deadline. */
    void await(String what, Predicate<String> condition, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!condition.test(text())) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what + "; output:\n" + text());
            }
            LockSupport.parkNanos(1_000_000); // a poll of the condition, not a guess at how long it takes
        }
    }
}
