package org.jrdma.bench.baseline;

import java.lang.management.ManagementFactory;

/**
 * Bytes allocated on the heap by the current thread (HotSpot's per-thread TLAB accounting),
 * read before and after a measured loop to give bytes allocated per operation.
 */
final class AllocCounter {
    private static final com.sun.management.ThreadMXBean THREADS = threads();

    private AllocCounter() {
    }

    private static com.sun.management.ThreadMXBean threads() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t && t.isThreadAllocatedMemorySupported()) {
            t.setThreadAllocatedMemoryEnabled(true);
            return t;
        }
        return null;
    }

    /** Allocated bytes so far on this thread, or -1 where the JVM cannot tell. */
    static long now() {
        return THREADS == null ? -1 : THREADS.getCurrentThreadAllocatedBytes();
    }

    /** Bytes per operation between two readings, NaN when unknown or no operation ran. */
    static double perOp(long before, long after, long ops) {
        return before < 0 || after < 0 || ops <= 0 ? Double.NaN : (double) (after - before) / ops;
    }
}
