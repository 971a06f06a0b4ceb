package org.jrdma.shm.sys;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;

/**
 * Asserts that a call allocates nothing on the Java heap once compiled (the thread's allocation
 * counter). Before C2 compiles the downcall chain the interpreter and C1 allocate tens of bytes a
 * call, so the call runs in rounds until one round allocates (next to) nothing, or the rounds run
 * out.
 */
final class Allocation {
    private static final int ROUNDS = 100;
    private static final int RUNS = 10_000;

    private Allocation() {
    }

    static void assertNoneIn(Runnable call) {
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().threadId();
        long least = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS && least >= RUNS / 4; round++) {
            long before = bean.getThreadAllocatedBytes(id);
            for (int i = 0; i < RUNS; i++) {
                call.run();
            }
            least = Math.min(least, bean.getThreadAllocatedBytes(id) - before);
        }
        // the counter itself may allocate a little; one byte a call would be 10 000
        assertThat(least).as("bytes allocated by " + RUNS + " warm calls").isLessThan(RUNS / 4);
    }
}
