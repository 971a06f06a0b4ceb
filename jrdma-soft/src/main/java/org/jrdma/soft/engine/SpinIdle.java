package org.jrdma.soft.engine;

/** Busy-polls on every idle pass: the lowest latency, one core always busy. */
public final class SpinIdle implements IdleStrategy {
    @Override
    public Step idle(int workCount) {
        if (workCount > 0) {
            return Step.NONE;
        }
        Thread.onSpinWait();
        return Step.SPIN;
    }

    @Override
    public void reset() {
    }
}
