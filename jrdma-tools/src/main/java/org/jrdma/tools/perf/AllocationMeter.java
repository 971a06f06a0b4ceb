package org.jrdma.tools.perf;

import java.lang.management.ManagementFactory;

/**
 * Heap bytes allocated by every thread of the process over a measured phase, for
 * {@code --report-alloc}: com.sun.management.ThreadMXBean's per-thread allocation counters,
 * read for all threads at the start and at the end; a thread alive at the end contributes its
 * end value minus its start value (all of it if it started during the phase). Threads that end
 * during the phase are not counted, and the two snapshots themselves allocate a few arrays
 * outside the counted interval. Off (NaN) without {@code --report-alloc} or when the JVM does
 * not support the counters.
 */
final class AllocationMeter {
    private final com.sun.management.ThreadMXBean threads;
    private long[] startIds = new long[0];
    private long[] startBytes = new long[0];
    /** A thread not to count (-1: none): a passive server's own, which only waits on TCP. */
    private long excluded = -1;

    AllocationMeter(boolean enabled) {
        com.sun.management.ThreadMXBean t = null;
        if (enabled && ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean sun
                && sun.isThreadAllocatedMemorySupported()) {
            if (!sun.isThreadAllocatedMemoryEnabled()) {
                sun.setThreadAllocatedMemoryEnabled(true);
            }
            t = sun;
            // The first reading loads and links the JDK's code behind it (streams, lambdas):
            // done here, not inside the first measured phase.
            t.getThreadAllocatedBytes(t.getAllThreadIds());
        }
        this.threads = t;
    }

    /**
     * Leaves the calling thread out: a passive server's thread only waits for the client's
     * "end of the test" over TCP while its engine serves the operations.
     */
    AllocationMeter excludingCurrentThread() {
        excluded = Thread.currentThread().threadId();
        return this;
    }

    boolean supported() {
        return threads != null;
    }

    void start() {
        if (threads == null) {
            return;
        }
        startIds = threads.getAllThreadIds();
        startBytes = threads.getThreadAllocatedBytes(startIds);
    }

    /** Bytes allocated since {@link #start} per operation, or NaN when off or nothing was done. */
    double perOperation(long operations) {
        if (threads == null || operations <= 0) {
            return Double.NaN;
        }
        return (double) stop() / operations;
    }

    /** Bytes allocated since {@link #start}. */
    long stop() {
        if (threads == null) {
            return 0;
        }
        long[] ids = threads.getAllThreadIds();
        long[] bytes = threads.getThreadAllocatedBytes(ids);
        long total = 0;
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] < 0 || ids[i] == excluded) {
                continue; // the thread ended between the two calls, or is not counted
            }
            total += bytes[i] - startValue(ids[i]);
        }
        return Math.max(0, total);
    }

    private long startValue(long id) {
        for (int i = 0; i < startIds.length; i++) {
            if (startIds[i] == id) {
                return Math.max(0, startBytes[i]);
            }
        }
        return 0;
    }
}
