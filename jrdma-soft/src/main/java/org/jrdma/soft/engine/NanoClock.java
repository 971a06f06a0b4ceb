package org.jrdma.soft.engine;

/** A monotonic nanosecond clock. */
@FunctionalInterface
public interface NanoClock {
    long nanoTime();
}
