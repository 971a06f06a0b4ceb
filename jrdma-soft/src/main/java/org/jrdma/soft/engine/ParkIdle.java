package org.jrdma.soft.engine;

/** Parks on every idle pass: no core used while idle, a wake-up's latency on the next packet. */
public final class ParkIdle implements IdleStrategy {
    private final Parker parker;

    public ParkIdle(Parker parker) {
        this.parker = parker;
    }

    @Override
    public Step idle(int workCount) {
        if (workCount > 0) {
            return Step.NONE;
        }
        parker.park();
        return Step.PARK;
    }

    @Override
    public void reset() {
    }
}
