package org.jrdma.soft.engine;

import java.lang.System.Logger.Level;
import org.jrdma.soft.transport.LogBudget;
import org.jrdma.soft.wire.DropReason;

/**
 * Rate-limited warnings for dropped packets (RELIABILITY-SECURITY SEC-33; rxe uses
 * {@code pr_warn_ratelimited}). Every drop is counted by reason elsewhere; this only decides
 * whether a line is written: at most {@link #LINES_PER_INTERVAL} per {@link #INTERVAL_NANOS},
 * the rest are counted as suppressed and summed up in one line when the next interval starts.
 * A garbage flood therefore costs a counter increment and a comparison per packet, never a
 * log call, and the log cannot be used to fill a disk.
 *
 * <p>Single writer: called by whichever thread holds the engine lock. The counts are volatile
 * so that tests and tools may read them from other threads. Nothing is logged about packet
 * contents (no PSN or key: OOB-16), only the reason.
 */
public final class DropLog {
    public static final int LINES_PER_INTERVAL = 10;
    static final long INTERVAL_NANOS = 1_000_000_000L;
    private static final System.Logger LOG = System.getLogger("org.jrdma.soft.drops");

    private final String device;
    private final NanoClock clock;
    private final LogBudget budget = new LogBudget(LINES_PER_INTERVAL, INTERVAL_NANOS);
    /** Made once: a drop must not allocate. */
    private final java.util.function.LongConsumer summary;
    private volatile long linesWritten;

    DropLog(String device, NanoClock clock) {
        this.device = device;
        this.clock = clock;
        this.summary = held -> write(Level.WARNING, "jrdma-soft " + device + ": " + held
                + " more dropped packets not logged (see the drop_* counters)");
    }

    /** A packet was dropped for {@code reason}: log it if this interval's budget allows. */
    void note(DropReason reason) {
        if (budget.allow(clock.nanoTime(), summary)) {
            write(levelOf(reason), "jrdma-soft " + device + ": dropped a packet: " + reason.description());
        }
    }

    private void write(Level level, String line) {
        linesWritten++;
        LOG.log(level, line);
    }

    /**
     * A packet for a QP that was just destroyed or moved to ERR is normal at teardown (the
     * peer's last ACK or retransmission): DEBUG. Everything else means a broken or hostile
     * sender: WARNING. Both use the same budget.
     */
    private static Level levelOf(DropReason reason) {
        return reason == DropReason.UNKNOWN_QPN || reason == DropReason.BAD_QP_STATE ? Level.DEBUG : Level.WARNING;
    }

    /** Lines written so far (drop lines and summaries). */
    public long linesWritten() {
        return linesWritten;
    }

    /** Drops that were counted but not logged. */
    public long suppressed() {
        return budget.suppressed();
    }
}
