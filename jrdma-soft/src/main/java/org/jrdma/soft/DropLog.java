package org.jrdma.soft;

import java.lang.System.Logger.Level;
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
final class DropLog {
    static final int LINES_PER_INTERVAL = 10;
    static final long INTERVAL_NANOS = 1_000_000_000L;
    private static final System.Logger LOG = System.getLogger("org.jrdma.soft.drops");

    private final String device;
    private final NanoClock clock;
    private long intervalStart = Long.MIN_VALUE;
    private int linesThisInterval;
    private long suppressedThisInterval;
    private volatile long linesWritten;
    private volatile long suppressed;

    DropLog(String device, NanoClock clock) {
        this.device = device;
        this.clock = clock;
    }

    /** A packet was dropped for {@code reason}: log it if this interval's budget allows. */
    void note(DropReason reason) {
        long now = clock.nanoTime();
        if (intervalStart == Long.MIN_VALUE || now - intervalStart >= INTERVAL_NANOS) {
            if (suppressedThisInterval > 0) {
                write(Level.WARNING, "jrdma-soft " + device + ": " + suppressedThisInterval + " more dropped packets not logged"
                        + " (see the drop_* counters)");
            }
            intervalStart = now;
            linesThisInterval = 0;
            suppressedThisInterval = 0;
        }
        if (linesThisInterval < LINES_PER_INTERVAL) {
            linesThisInterval++;
            write(levelOf(reason), "jrdma-soft " + device + ": dropped a packet: " + reason.description());
        } else {
            suppressedThisInterval++;
            suppressed++;
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
    long linesWritten() {
        return linesWritten;
    }

    /** Drops that were counted but not logged. */
    long suppressed() {
        return suppressed;
    }
}
