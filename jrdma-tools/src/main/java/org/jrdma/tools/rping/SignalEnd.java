package org.jrdma.tools.rping;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What the kernel does for rping when its process ends by a signal (^C, SIGTERM): it destroys
 * the process's CM ids, so each peer gets a DREQ and sees DISCONNECTED — to its server, an rping
 * client stopped with ^C is a client that disconnected (exit 0), not one that died. A soft
 * device lives inside the process, so a shutdown hook does it here: it interrupts the command's
 * thread, whose cleanup closes the ids (sending the DREQs), and waits for that cleanup, at most
 * {@value #CLEANUP_MS} ms. SIGKILL runs no hook: the peer learns by its retry counter or its
 * timeout instead.
 */
final class SignalEnd implements AutoCloseable {
    private static final long CLEANUP_MS = 2000;
    private final Thread hook;
    private final CountDownLatch cleanedUp = new CountDownLatch(1);
    private volatile boolean signalled;

    /** Installs the hook for {@code worker}, the thread running the command. */
    SignalEnd(Thread worker) {
        hook = new Thread(() -> {
            signalled = true;
            worker.interrupt();
            try {
                cleanedUp.await(CLEANUP_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                // the JVM goes down either way
            }
        }, "rping-signal-end");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** True once a signal asked the process to end: what the interrupt then breaks is no failure. */
    boolean signalled() {
        return signalled;
    }

    /** The command's ids are closed: the hook (if running) may let the JVM go; else it is removed. */
    @Override
    public void close() {
        cleanedUp.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it has just been released
        }
    }
}
