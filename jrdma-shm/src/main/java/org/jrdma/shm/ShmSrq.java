package org.jrdma.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.jrdma.shm.ring.MpmcRing;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.PostException;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SharedReceiveQueue;
import org.jrdma.verbs.SrqInitAttr;
import org.jrdma.verbs.VerbsException;

/**
 * A shared receive queue: one receive ring that the requesters of every QP attached to it
 * consume (the ring is multi-consumer). The limit lives in the slot: the requester that takes
 * the level below it clears it and flags the owner, whose progress thread raises
 * SRQ_LIMIT_REACHED.
 */
final class ShmSrq implements SharedReceiveQueue {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    final ShmPd pd;
    final Node node;
    final int index;
    final RecvRing queue;
    private final long bytes;
    private final long slot;
    private int users;
    private boolean closed;

    ShmSrq(ShmPd pd, SrqInitAttr attr) {
        if (attr.maxWr() < 1 || attr.maxWr() > Limits.MAX_SRQ_WR) {
            throw new VerbsException(Errno.EINVAL, "create_srq: max_wr " + attr.maxWr() + " outside 1.." + Limits.MAX_SRQ_WR);
        }
        if (attr.maxSge() < 0 || attr.maxSge() > Limits.MAX_SGE) {
            throw new VerbsException(Errno.EINVAL, "create_srq: max_sge " + attr.maxSge() + " outside 0.." + Limits.MAX_SGE);
        }
        if (attr.srqLimit() < 0 || attr.srqLimit() > attr.maxWr()) {
            throw new VerbsException(Errno.EINVAL, "create_srq: limit " + attr.srqLimit() + " outside 0.." + attr.maxWr());
        }
        this.pd = pd;
        this.node = pd.node();
        int maxSge = Math.max(1, attr.maxSge());
        int capacity = Integer.highestOneBit(Math.max(2, attr.maxWr()) * 2 - 1);
        int entry = Layout.recvEntryBytes(maxSge);
        this.bytes = MpmcRing.bytesFor(capacity, entry);
        this.index = node.claimSrq();
        long base;
        try {
            base = node.heap.allocate(bytes, "create_srq");
        } catch (VerbsException e) {
            node.freeSrq(index);
            throw e;
        }
        this.queue = new RecvRing(MpmcRing.format(node.ctl, base, capacity, entry), attr.maxWr(), maxSge);
        this.slot = Layout.srqSlot(index);
        MemorySegment ctl = node.ctl;
        ctl.set(ValueLayout.JAVA_LONG, slot + Layout.SRQ_RING, base);
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.SRQ_CAPACITY, capacity);
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.SRQ_SGE, maxSge);
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.SRQ_PD, pd.id);
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.SRQ_LIMIT_FIRED, 0);
        INT.setRelease(ctl, slot + Layout.SRQ_LIMIT, attr.srqLimit());
        node.srqs[index] = this;
        INT.setRelease(ctl, slot + Layout.SRQ_LIVE, 1);
    }

    @Override
    public void postRecv(RecvWorkRequest wr) {
        synchronized (this) {
            if (closed) {
                throw PostException.of(new VerbsException(Errno.EINVAL, "post_srq_recv: the SRQ was destroyed"), wr, 0);
            }
            queue.postList(wr, "post_srq_recv");
        }
    }

    @Override
    public synchronized void armLimit(int srqLimit) {
        if (srqLimit < 0 || srqLimit > queue.depth) {
            throw new VerbsException(Errno.EINVAL, "modify_srq: limit " + srqLimit + " outside 0.." + queue.depth);
        }
        INT.setRelease(node.ctl, slot + Layout.SRQ_LIMIT, srqLimit);
    }

    @Override
    public synchronized SrqInitAttr query() {
        return new SrqInitAttr(queue.depth, queue.maxSge, (int) INT.getAcquire(node.ctl, slot + Layout.SRQ_LIMIT));
    }

    /** The progress thread: a requester flagged that the limit fired. */
    void checkLimit() {
        if ((int) INT.getAcquire(node.ctl, slot + Layout.SRQ_LIMIT_FIRED) != 0
                && INT.compareAndSet(node.ctl, slot + Layout.SRQ_LIMIT_FIRED, 1, 0)) {
            pd.context.postAsync(AsyncEventType.SRQ_LIMIT_REACHED, null, null, this);
        }
    }

    synchronized void attach() {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, "create_qp: the SRQ was destroyed");
        }
        users++;
    }

    synchronized void detach() {
        users--;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            if (users > 0) {
                throw new VerbsException(Errno.EBUSY, "destroy_srq: " + users + " QP(s) still take receives from it");
            }
            closed = true;
        }
        INT.setRelease(node.ctl, slot + Layout.SRQ_LIVE, 0);
        node.srqs[index] = null;
        node.heap.release(queue.ring.base(), bytes);
        node.freeSrq(index);
        pd.forget(this);
    }
}
