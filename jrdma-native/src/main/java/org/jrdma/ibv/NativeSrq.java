package org.jrdma.ibv;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.ibv.ffi.Ibv.Fn;
import org.jrdma.ibv.ffi.IbvCalls;
import org.jrdma.ibv.ffi.Native;
import org.jrdma.ibv.ffi.WorkRequests;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.PostException;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SharedReceiveQueue;
import org.jrdma.verbs.SrqInitAttr;
import org.jrdma.verbs.VerbsException;

/** {@code struct ibv_srq *}: receives posted through ops.post_srq_recv from a preallocated native post list. */
public final class NativeSrq implements SharedReceiveQueue {
    private final NativePd pd;
    private final MemorySegment srq;
    private final Arena arena = Arena.ofShared();
    private final WorkRequests recv;
    private boolean closed;

    private NativeSrq(NativePd pd, MemorySegment srq, int maxSge, int maxWr) {
        this.pd = pd;
        this.srq = srq;
        this.recv = WorkRequests.forRecv(arena, maxSge, maxWr);
    }

    static NativeSrq create(NativePd pd, SrqInitAttr attr) {
        if (attr.maxWr() < 1 || attr.maxSge() < 1 || attr.srqLimit() < 0) {
            throw new VerbsException(Errno.EINVAL, "ibv_create_srq: max_wr and max_sge must be at least 1, srq_limit"
                    + " not negative: " + attr);
        }
        MemorySegment srq = IbvCalls.createSrq(pd.pd, attr.maxWr(), attr.maxSge(), attr.srqLimit());
        int[] granted = IbvCalls.querySrq(srq);
        NativeSrq s = new NativeSrq(pd, srq, Math.max(granted[1], attr.maxSge()), Math.max(granted[0], attr.maxWr()));
        pd.context.srqs.add(srq, s);
        return s;
    }

    MemorySegment handle() {
        return srq;
    }

    NativePd pd() {
        return pd;
    }

    boolean isClosed() {
        return closed;
    }

    /** ibv_post_srq_recv of {@code wr} and its {@code next} chain: one call (see {@link WorkRequests#postRecvs}). */
    @Override
    public synchronized void postRecv(RecvWorkRequest wr) {
        if (closed) {
            throw PostException.of(new VerbsException(Errno.EINVAL, "ibv_post_srq_recv: the SRQ was closed"), wr, 0);
        }
        recv.postRecvs(pd.context.ops.postSrqRecv, srq, wr, "ibv_post_srq_recv", "the SRQ takes", "max_wr");
    }

    @Override
    public synchronized void armLimit(int srqLimit) {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, "ibv_modify_srq: the SRQ was closed");
        }
        IbvCalls.modifySrqLimit(srq, srqLimit);
    }

    @Override
    public synchronized SrqInitAttr query() {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, "ibv_query_srq: the SRQ was closed");
        }
        int[] a = IbvCalls.querySrq(srq);
        return new SrqInitAttr(a[0], a[1], a[2]);
    }

    @Override
    public synchronized void close() {
        if (closed || pd.context.isClosed()) {
            return;
        }
        pd.context.ackAllAsync();
        int rc = IbvCalls.statusQuiet(s -> (int) Fn.ibv_destroy_srq$mh.invokeExact(s, srq));
        if (rc != 0) {
            throw Native.failure("ibv_destroy_srq", rc);
        }
        forget();
    }

    synchronized void release() {
        if (!closed) {
            pd.context.ackAllAsync();
            IbvCalls.statusQuiet(s -> (int) Fn.ibv_destroy_srq$mh.invokeExact(s, srq));
            forget();
        }
    }

    private void forget() {
        closed = true;
        pd.context.srqs.remove(srq);
        arena.close();
    }
}
