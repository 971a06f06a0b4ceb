package org.jrdma.soft.transport;

import java.util.function.LongConsumer;

/**
 * A rate limit for log lines (rxe's {@code pr_warn_ratelimited}): at most {@code lines} per
 * interval; the rest are counted, and the next interval starts by reporting how many the last
 * one held back. The caller keeps the clock; one thread at a time (the engine's).
 */
public final class LogBudget {
    private final int lines;
    private final long intervalNanos;
    private long intervalStart = Long.MIN_VALUE;
    private int used;
    private long heldBack;
    private volatile long suppressed;

    public LogBudget(int lines, long intervalNanos) {
        this.lines = lines;
        this.intervalNanos = intervalNanos;
    }

    /**
     * Whether a line may be written at {@code now}. When a new interval begins, {@code summary}
     * first gets the number of lines the previous one held back (if any).
     */
    public boolean allow(long now, LongConsumer summary) {
        if (intervalStart == Long.MIN_VALUE || now - intervalStart >= intervalNanos) {
            if (heldBack > 0) {
                summary.accept(heldBack);
            }
            intervalStart = now;
            used = 0;
            heldBack = 0;
        }
        if (used < lines) {
            used++;
            return true;
        }
        heldBack++;
        suppressed++;
        return false;
    }

    /** Lines held back so far. */
    public long suppressed() {
        return suppressed;
    }
}
