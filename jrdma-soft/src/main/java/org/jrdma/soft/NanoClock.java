package org.jrdma.soft;

/** A monotonic nanosecond clock. */
@FunctionalInterface
public interface NanoClock {
    long nanoTime();
}
