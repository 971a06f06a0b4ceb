package org.jrdma.testkit;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Closes resources in the reverse order of their creation, as verbs require (QPs before their
 * CQs, MRs and QPs before their PD), keeps going past failures and reports the first with the
 * rest suppressed.
 */
final class Closer implements AutoCloseable {
    private final Deque<AutoCloseable> open = new ArrayDeque<>();

    <T extends AutoCloseable> T add(T resource) {
        open.push(resource);
        return resource;
    }

    /** Closes one resource now; it stays tracked if closing fails (e.g. a PD refused with EBUSY). */
    void closeNow(AutoCloseable resource) {
        closeOne(resource);
        open.removeFirstOccurrence(resource);
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        while (!open.isEmpty()) {
            try {
                closeOne(open.pop());
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static void closeOne(AutoCloseable resource) {
        try {
            resource.close();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("closing " + resource + " failed", e);
        }
    }
}
