package org.jrdma.soft.engine;

import java.util.Arrays;

/**
 * The QPs an engine pass visits: those with something to do, not every QP of the device. A QP
 * becomes active when its doorbell rings (post_send, bind_mw, modify_qp — from any thread) or a
 * packet for it arrives (the engine), and stays active while a visit does work or a timer of
 * its is armed (retransmit, RNR); a visit that does nothing and leaves no timer drops it. So a
 * device with one busy QP and a thousand idle ones visits one QP per pass, and the earliest
 * deadline is found among the active QPs alone.
 *
 * <p>Why this is enough: a QP that was dropped has no timer and nothing its requester or
 * responder could send now; what can change that is a post (its doorbell), a modify (its
 * doorbell), or a packet (an ACK opening the window, a NAK, a response, a request) — each of
 * which makes it active again. rxe schedules its tasks on the same events.
 *
 * <p>Threads: {@link #ring} may be called from any thread and takes this object's doorbell
 * lock; everything else runs under the engine lock. No allocation once the arrays have grown
 * to the number of QPs.
 */
public final class ActiveQps {
    /** A QP's membership, owned by this class: one per QP, made with it. */
    public static final class Slot {
        /** In {@link #rung}; guarded by the doorbell lock. */
        private boolean rung;
        /** In {@link #active}; engine lock. */
        private boolean active;
    }

    private final Object doorbells = new Object();
    private EngineQp[] rung = new EngineQp[8];
    private int rungCount;
    private EngineQp[] active = new EngineQp[8];
    private int activeCount;
    /** No timer armed (a nanoTime value this exact is taken to mean none). */
    private static final long NONE = Long.MIN_VALUE;
    /** The earliest armed timer among the active QPs as of the last pass, or NONE (read without the lock). */
    private volatile long earliestDeadline = NONE;
    private int kept;
    private long earliest;

    /** The QP has work for the engine (a post or a modify): any thread. */
    void ring(EngineQp qp) {
        Slot s = qp.activeSlot();
        synchronized (doorbells) {
            if (s.rung) {
                return;
            }
            s.rung = true;
            rung = roomForOne(rung, rungCount);
            rung[rungCount++] = qp;
        }
    }

    /** Moves the rung QPs into the active list (start of a pass; engine lock). */
    void takeDoorbells() {
        synchronized (doorbells) {
            for (int i = 0; i < rungCount; i++) {
                EngineQp qp = rung[i];
                rung[i] = null;
                qp.activeSlot().rung = false;
                add(qp);
            }
            rungCount = 0;
        }
    }

    /** The QP has work (a packet for it arrived; engine lock). */
    void add(EngineQp qp) {
        Slot s = qp.activeSlot();
        if (s.active) {
            return;
        }
        s.active = true;
        active = roomForOne(active, activeCount);
        active[activeCount++] = qp;
    }

    /** {@code a} when it has room for one more after {@code count} QPs, else a copy twice as long. */
    private static EngineQp[] roomForOne(EngineQp[] a, int count) {
        return count == a.length ? Arrays.copyOf(a, count * 2) : a;
    }

    /** How many QPs are active now (engine lock). */
    int count() {
        return activeCount;
    }

    /** The {@code i}-th active QP, {@code i < count()} (engine lock). */
    EngineQp get(int i) {
        return active[i];
    }

    /** Starts the visits of a pass (engine lock): {@link #visited} is then called for each active QP, in order. */
    void beginVisits() {
        kept = 0;
        earliest = NONE;
    }

    /**
     * The visit of the {@code i}-th active QP is over: {@code keep} when it did work or has a
     * timer armed, whose deadline is {@code deadline} (0: none). Engine lock.
     */
    void visited(int i, boolean keep, long deadline) {
        EngineQp qp = active[i];
        if (!keep) {
            qp.activeSlot().active = false;
            return;
        }
        active[kept++] = qp;
        if (deadline != 0 && (earliest == NONE || deadline - earliest < 0)) {
            earliest = deadline;
        }
    }

    /** Ends the visits: the dropped QPs leave the list, the earliest deadline is published. */
    void endVisits() {
        Arrays.fill(active, kept, activeCount, null);
        activeCount = kept;
        earliestDeadline = earliest;
    }

    /** Nanoseconds from {@code now} until the earliest timer of an active QP; Long.MAX_VALUE when none (any thread). */
    long nanosUntilNextTimer(long now) {
        long d = earliestDeadline;
        return d == NONE ? Long.MAX_VALUE : Math.max(0, d - now);
    }
}
