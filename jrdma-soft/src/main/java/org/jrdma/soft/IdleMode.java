package org.jrdma.soft;

import org.jrdma.soft.engine.BackoffIdle;
import org.jrdma.soft.engine.IdleStrategy;
import org.jrdma.soft.engine.ParkIdle;
import org.jrdma.soft.engine.SpinIdle;
import org.jrdma.soft.engine.YieldIdle;

/**
 * How a device's engine thread ({@code ThreadingMode.DEDICATED}) waits after a pass that found
 * nothing to do. The application's own polls drive the engine whatever the mode.
 */
public enum IdleMode {
    /** Spin, then yield, then park until a packet, a post or a timer: the default. */
    BACKOFF,
    /** Spin on every idle pass: the lowest latency, one core always busy. */
    SPIN,
    /** Yield on every idle pass: busy, but a thread waiting for the core gets it. */
    YIELD,
    /** Park on every idle pass: no core used while idle, a wake-up's latency on the next packet. */
    PARK;

    IdleStrategy strategy(IdleStrategy.Parker parker) {
        return switch (this) {
            case BACKOFF -> new BackoffIdle(parker);
            case SPIN -> new SpinIdle();
            case YIELD -> new YieldIdle();
            case PARK -> new ParkIdle(parker);
        };
    }
}
