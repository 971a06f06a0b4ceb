package org.jrdma.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.jrdma.verbs.Context;

/**
 * What a provider supplies to the suites: the device under test, the port and GID index to use,
 * the optional {@link Feature}s it has, and a hook that lets its engine progress while a test
 * waits. A suite calls {@code fixture()} once per test, opens a context, and gives it back
 * through {@link #releaseContext(Context)} after closing everything it created.
 */
public interface ProviderFixture {
    /**
     * A context on the device under test, called before each test. Fresh per call or one shared
     * context: the fixture decides, and {@link #releaseContext(Context)} must match that choice.
     *
     * @return an open context
     */
    Context openContext();

    /**
     * The context the second QP of a {@link Loopback} lives in, opened only by tests that build
     * one. By default {@link #openContext()} again (the same device); a provider may return
     * a second device so that loopback traffic crosses its real network path.
     *
     * @return an open context
     */
    default Context openPeerContext() {
        return openContext();
    }

    /**
     * Takes back a context obtained from {@link #openContext()} or {@link #openPeerContext()},
     * once per distinct context after each test. Closes it by default; a fixture that shares
     * one context overrides this to keep it open.
     *
     * @param context the context to take back
     */
    default void releaseContext(Context context) {
        context.close();
    }

    /**
     * The port to use (ibverbs numbers them from 1).
     *
     * @return the port number, 1 by default
     */
    default int port() {
        return 1;
    }

    /**
     * The GID table index to use as the source GID of address vectors.
     *
     * @return the index, 0 by default
     */
    default int gidIndex() {
        return 0;
    }

    /**
     * Does the provider implement this optional feature? Tests that need it are skipped if not.
     *
     * @param feature the feature
     * @return true if it does
     */
    boolean supports(Feature feature);

    /**
     * Called on every iteration of a wait ({@link Await}): a provider whose engine the caller
     * drives (Aeron's "invoker" mode) runs one bounded step of it here. May be called from any
     * thread the test uses. The default, for an engine on its own threads, only spins.
     */
    default void progress() {
        Thread.onSpinWait();
    }

    /**
     * How long to wait for anything that must happen before the test fails.
     *
     * @return the deadline, 10 s by default
     */
    default Duration deadline() {
        return Duration.ofSeconds(10);
    }

    /**
     * How long to watch for something that must not happen (a stray completion or event).
     *
     * @return the watch time, 200 ms by default
     */
    default Duration settleTime() {
        return Duration.ofMillis(200);
    }

    /**
     * Waits until {@code condition} holds, driving {@link #progress()}; fails naming {@code what}.
     *
     * @param condition polled until it holds
     * @param what what is awaited, for the failure
     */
    default void awaitCondition(BooleanSupplier condition, String what) {
        Await.until(this::progress, condition, deadline(), () -> what);
    }
}
