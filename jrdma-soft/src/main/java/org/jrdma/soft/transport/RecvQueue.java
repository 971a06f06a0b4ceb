package org.jrdma.soft.transport;

import org.jrdma.soft.memory.MemoryTable;
import org.jrdma.soft.memory.PdId;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.PostException;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.spi.PostLists;

/**
 * A ring of posted receives — a QP's own receive queue or the body of a shared one. Posting
 * resolves the SGEs against the registered regions; the responder takes the oldest entry when
 * a message starts (a copy, so the slot is free for new posts at once). Synchronized: an SRQ is
 * posted to by users and taken from by the engine for several QPs.
 */
public final class RecvQueue implements ReceiveSource {
    private final RecvWqe[] ring;
    private final int maxSge;
    private long head;
    private long tail;

    public RecvQueue(int capacity, int maxSge) {
        this.ring = new RecvWqe[Math.max(1, capacity)];
        this.maxSge = Math.max(1, maxSge);
        for (int i = 0; i < ring.length; i++) {
            ring[i] = new RecvWqe(this.maxSge);
        }
    }

    public int capacity() {
        return ring.length;
    }

    public int maxSge() {
        return maxSge;
    }

    /**
     * Posts {@code head} and the WRs its {@code next} chain leads to, in order, under one
     * acquisition of this queue's monitor; returns how many (all of them). When one is refused
     * (ENOMEM when full, EINVAL with too many SGEs), those before it stay posted and a
     * {@link PostException} names it. A cyclic list is refused before anything is posted.
     * {@code op} names the verb in errors.
     */
    public synchronized int postList(RecvWorkRequest head, MemoryTable memory, PdId pd, String op) {
        if (head.next != null && PostLists.length(head) < 0) {
            throw PostException.cyclic(op, head);
        }
        int n = 0;
        for (RecvWorkRequest wr = head; wr != null; wr = wr.next) {
            try {
                post(wr, memory, pd, op);
            } catch (VerbsException e) {
                throw PostException.of(e, wr, n);
            }
            n++;
        }
        return n;
    }

    /** Posts one WR (ENOMEM when full, EINVAL with too many SGEs); {@code op} names the verb in errors. */
    public synchronized void post(RecvWorkRequest wr, MemoryTable memory, PdId pd, String op) {
        if (tail - head >= ring.length) {
            throw new VerbsException(Errno.ENOMEM, op + ": the receive queue is full (" + ring.length + " WRs posted)");
        }
        if (wr.sgList.count() > maxSge) {
            throw new VerbsException(Errno.EINVAL, op + ": " + wr.sgList.count() + " SGEs but max_sge is " + maxSge);
        }
        RecvWqe w = ring[(int) (tail % ring.length)];
        w.reset();
        w.wrId = wr.wrId;
        w.postError = w.gather.resolve(wr.sgList, memory, pd, true);
        tail++;
    }

    @Override
    public synchronized boolean take(RecvWqe into) {
        if (head == tail) {
            return false;
        }
        RecvWqe w = ring[(int) (head % ring.length)];
        into.copyFrom(w);
        w.reset();
        head++;
        return true;
    }

    public synchronized int depth() {
        return (int) (tail - head);
    }

    /** Discards every entry without completions (→ RESET). */
    public synchronized void clear() {
        for (long i = head; i < tail; i++) {
            ring[(int) (i % ring.length)].reset();
        }
        head = tail = 0;
    }
}
