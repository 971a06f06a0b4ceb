package org.jrdma.tools.perf;

/**
 * Bytes allocated per operation in the steady state, for {@code --report-alloc}: the meter
 * starts when half of the run's operations are done, so what the JVM does once — loading a class
 * at its first use, compiling — is not charged to the operations, and what every operation
 * allocates is (issue 4: "zero bytes allocated per operation on the steady-state data path").
 * A run of unknown length (-D), or one too short to have a second half worth the name, is
 * measured from its start.
 */
final class SteadyAllocation {
    private final AllocationMeter meter;
    private final AllocationMeter whole;
    private long halfway;
    private long opsAtMark;
    private boolean marked;

    SteadyAllocation(AllocationMeter meter) {
        this.meter = meter;
        this.whole = new AllocationMeter(meter.supported());
    }

    /** A run of {@code expectedOps} operations begins (0 or less: unknown). */
    void begin(long expectedOps) {
        marked = false;
        opsAtMark = 0;
        whole.start();
        halfway = expectedOps > 0 ? expectedOps / 2 : 0;
        if (halfway == 0) {
            mark(0);
        }
    }

    /** {@code ops} operations are done; cheap enough to call on every pass of a loop. */
    void progress(long ops) {
        if (!marked && ops >= halfway) {
            mark(ops);
        }
    }

    private void mark(long ops) {
        meter.start();
        opsAtMark = ops;
        marked = true;
    }

    /** Bytes per operation since the mark, {@code ops} being the run's total; NaN when not measured. */
    double perOperation(long ops) {
        if (!meter.supported() || ops <= 0) {
            return Double.NaN;
        }
        if (marked && ops - opsAtMark >= Math.max(1, ops / 4)) {
            return (double) meter.stop() / (ops - opsAtMark);
        }
        return (double) whole.stop() / ops;
    }
}
