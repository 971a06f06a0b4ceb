package org.jrdma.soft.engine;

/** Yields the core on every idle pass: busy, but a thread waiting for the core gets it. */
public final class YieldIdle implements IdleStrategy {
    @Override
    public Step idle(int workCount) {
        if (workCount > 0) {
            return Step.NONE;
        }
        Thread.yield();
        return Step.YIELD;
    }

    @Override
    public void reset() {
    }
}
