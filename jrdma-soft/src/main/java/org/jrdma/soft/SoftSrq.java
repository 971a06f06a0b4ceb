package org.jrdma.soft;

import org.jrdma.soft.transport.ReceiveSource;
import org.jrdma.soft.transport.RecvQueue;
import org.jrdma.soft.transport.RecvWqe;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.PostException;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SharedReceiveQueue;
import org.jrdma.verbs.SrqInitAttr;
import org.jrdma.verbs.VerbsException;

/**
 * A shared receive queue: receives taken by whichever QP on it starts a message first. When a
 * take leaves fewer WRs than the armed limit, one SRQ_LIMIT_REACHED event fires and the limit
 * disarms (ibv_modify_srq.3).
 */
public final class SoftSrq implements SharedReceiveQueue, ReceiveSource {
    private final SoftPd pd;
    private final SoftContext context;
    private final RecvQueue queue;
    private int limit;
    private int users;
    private boolean closed;

    SoftSrq(SoftPd pd, SoftContext context, SrqInitAttr attr) {
        if (attr.maxWr() < 1 || attr.maxWr() > SoftLimits.MAX_QP_WR) {
            throw new VerbsException(Errno.EINVAL, "create_srq: max_wr " + attr.maxWr() + " outside 1.." + SoftLimits.MAX_QP_WR);
        }
        if (attr.maxSge() < 0 || attr.maxSge() > SoftLimits.MAX_SGE) {
            throw new VerbsException(Errno.EINVAL, "create_srq: max_sge " + attr.maxSge() + " outside 0.." + SoftLimits.MAX_SGE);
        }
        this.pd = pd;
        this.context = context;
        this.queue = new RecvQueue(attr.maxWr(), attr.maxSge());
        armLimit(attr.srqLimit());
    }

    /** ibv_post_srq_recv of {@code wr} and its {@code next} chain, under one acquisition of the queue's monitor. */
    @Override
    public void postRecv(RecvWorkRequest wr) {
        synchronized (this) {
            if (closed) {
                throw PostException.of(new VerbsException(Errno.EINVAL, "post_srq_recv: the SRQ was destroyed"), wr, 0);
            }
        }
        queue.postList(wr, pd.hca().memory(), pd.id(), "post_srq_recv");
    }

    @Override
    public boolean take(RecvWqe into) {
        if (!queue.take(into)) {
            return false;
        }
        boolean fire;
        synchronized (this) {
            fire = limit > 0 && queue.depth() < limit;
            if (fire) {
                limit = 0;
            }
        }
        if (fire) {
            context.postAsync(AsyncEventType.SRQ_LIMIT_REACHED, null, null, this, 0);
        }
        return true;
    }

    @Override
    public synchronized void armLimit(int srqLimit) {
        if (srqLimit < 0 || srqLimit > queue.capacity()) {
            throw new VerbsException(Errno.EINVAL, "modify_srq: limit " + srqLimit + " outside 0.." + queue.capacity());
        }
        limit = srqLimit;
    }

    @Override
    public synchronized SrqInitAttr query() {
        return new SrqInitAttr(queue.capacity(), queue.maxSge(), limit);
    }

    SoftPd pd() {
        return pd;
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
        pd.forget(this);
    }
}
