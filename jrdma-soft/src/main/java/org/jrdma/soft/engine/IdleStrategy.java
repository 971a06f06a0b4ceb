package org.jrdma.soft.engine;

/**
 * What the engine thread does after a pass (Agrona's idea of an idle strategy): nothing when
 * the pass did work, else wait in its own way. The engine thread's default is
 * {@link BackoffIdle} — spin, then yield, then park — the others fix one way of waiting for
 * every idle pass: {@link SpinIdle} (lowest latency, a core kept busy), {@link YieldIdle},
 * {@link ParkIdle} (no core used while idle, a wake-up's latency on the next packet).
 *
 * <p>Parking is the device's, not the strategy's ({@link Parker}): it must sleep until a
 * datagram, a post or the next timer, which only the runner knows how to wait for.
 */
public interface IdleStrategy {
    /** The way an idle pass waited (returned so tests can see the strategy without timing it). */
    enum Step { NONE, SPIN, YIELD, PARK }

    /** Blocks until there may be work: a datagram, a post, a timer (see {@link EngineRunner}). */
    @FunctionalInterface
    interface Parker {
        void park();
    }

    /** Called after every pass with the work it did: resets on work, else waits one step. */
    Step idle(int workCount);

    /** Forgets the idle passes so far (the engine did work outside {@link #idle}). */
    void reset();
}
