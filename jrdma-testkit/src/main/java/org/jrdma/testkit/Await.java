package org.jrdma.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Polling waits: a test never sleeps to let state settle, it polls a condition and runs the
 * provider's progress hook between polls, so a caller-driven engine makes progress and a
 * threaded one is not slowed down. A wait that gives up fails with the thing it awaited.
 */
public final class Await {
    /** Spinning alone can starve the provider's threads on a small machine: yield now and then. */
    private static final int SPINS_PER_YIELD = 1024;

    private Await() {
    }

    /**
     * Waits for {@code condition}, spinning between polls; fails after {@code deadline}.
     *
     * @param condition polled until it holds
     * @param deadline how long to wait
     * @param what what is awaited, for the failure
     * @throws AssertionError naming {@code what} when the deadline passes first
     */
    public static void until(BooleanSupplier condition, Duration deadline, String what) {
        until(Thread::onSpinWait, condition, deadline, () -> what);
    }

    /**
     * Waits for {@code condition}, running {@code progress} between polls.
     *
     * @param progress run between polls (the provider's progress hook)
     * @param condition polled until it holds
     * @param deadline how long to wait
     * @param what what is awaited, for the failure
     * @throws AssertionError naming {@code what} when the deadline passes first
     */
    public static void until(Runnable progress, BooleanSupplier condition, Duration deadline, String what) {
        until(progress, condition, deadline, () -> what);
    }

    /**
     * Waits for {@code condition}, running {@code progress} between polls.
     *
     * @param progress run between polls (the provider's progress hook)
     * @param condition polled until it holds
     * @param deadline how long to wait
     * @param what evaluated only on failure, so it can report what was seen so far
     * @throws AssertionError naming {@code what} when the deadline passes first
     */
    public static void until(Runnable progress, BooleanSupplier condition, Duration deadline, Supplier<String> what) {
        long start = System.nanoTime();
        long limit = deadline.toNanos();
        for (long spins = 1; !condition.getAsBoolean(); spins++) {
            if (System.nanoTime() - start > limit) {
                throw new AssertionError("gave up after " + deadline.toMillis() + " ms awaiting " + what.get());
            }
            progress.run();
            if (spins % SPINS_PER_YIELD == 0) {
                Thread.yield();
            }
        }
    }

    /**
     * Checks that {@code invariant} holds on every poll for the whole {@code window}, running
     * {@code progress} between polls: the way to assert that something does not happen.
     *
     * @param progress run between polls (the provider's progress hook)
     * @param invariant must hold on every poll
     * @param window how long to watch
     * @param what what broke the invariant, evaluated only on failure
     * @throws AssertionError naming {@code what} when the invariant fails
     */
    public static void holdsFor(Runnable progress, BooleanSupplier invariant, Duration window, Supplier<String> what) {
        long start = System.nanoTime();
        long limit = window.toNanos();
        long spins = 0;
        do {
            if (!invariant.getAsBoolean()) {
                throw new AssertionError(what.get() + " (within " + window.toMillis() + " ms)");
            }
            progress.run();
            if (++spins % SPINS_PER_YIELD == 0) {
                Thread.yield();
            }
        } while (System.nanoTime() - start <= limit);
        if (!invariant.getAsBoolean()) {
            throw new AssertionError(what.get() + " (within " + window.toMillis() + " ms)");
        }
    }
}
