package org.jrdma.soft.engine;

/**
 * Spins for a while, yields for a while, then parks; any work starts again from spinning. The
 * engine thread's default with {@link #SPIN_PASSES} and {@link #YIELD_PASSES}: busy polling
 * keeps latency low while traffic flows (ANCHORS.md), the yields let a thread that shares the
 * core run, and parking leaves an idle device costing nothing.
 */
public final class BackoffIdle implements IdleStrategy {
    /** Busy passes before yielding. */
    static final int SPIN_PASSES = 20_000;
    static final int YIELD_PASSES = 200;

    private final int spinPasses;
    private final int yieldPasses;
    private final Parker parker;
    private int idlePasses;

    public BackoffIdle(Parker parker) {
        this(SPIN_PASSES, YIELD_PASSES, parker);
    }

    /** Spins while fewer than {@code spinPasses} idle passes have been counted, yields for {@code yieldPasses} more. */
    BackoffIdle(int spinPasses, int yieldPasses, Parker parker) {
        if (spinPasses < 0 || yieldPasses < 0) {
            throw new IllegalArgumentException("passes must not be negative: " + spinPasses + ", " + yieldPasses);
        }
        this.spinPasses = spinPasses;
        this.yieldPasses = yieldPasses;
        this.parker = parker;
    }

    @Override
    public Step idle(int workCount) {
        if (workCount > 0) {
            idlePasses = 0;
            return Step.NONE;
        }
        if (idlePasses < Integer.MAX_VALUE) {
            idlePasses++;
        }
        if (idlePasses < spinPasses) {
            Thread.onSpinWait();
            return Step.SPIN;
        }
        if (idlePasses < spinPasses + yieldPasses) {
            Thread.yield();
            return Step.YIELD;
        }
        parker.park();
        return Step.PARK;
    }

    @Override
    public void reset() {
        idlePasses = 0;
    }
}
