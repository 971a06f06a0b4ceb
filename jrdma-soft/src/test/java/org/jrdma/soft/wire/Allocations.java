package org.jrdma.soft.wire;

import java.lang.management.ManagementFactory;

/** Bytes the current thread allocates while running a piece of code (HotSpot's per-thread counter). */
final class Allocations {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private Allocations() {
    }

    static long bytesAllocatedBy(Runnable work) {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        work.run();
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }
}
