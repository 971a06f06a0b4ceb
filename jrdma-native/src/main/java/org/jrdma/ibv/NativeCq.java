package org.jrdma.ibv;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.ibv.ffi.Completions;
import org.jrdma.ibv.ffi.Ibv.Fn;
import org.jrdma.ibv.ffi.IbvCalls;
import org.jrdma.ibv.ffi.Native;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WorkCompletion;

/**
 * {@code struct ibv_cq *}: polled through the ops table into a preallocated ibv_wc array. Tracks
 * the events taken from its channel and not yet acknowledged, so that a close acknowledges them
 * (ibv_destroy_cq waits for every event to be acked) and an over-ack is refused rather than left
 * to hang the destroy.
 */
public final class NativeCq implements CompletionQueue {
    private final NativeContext context;
    private final MemorySegment cq;
    private final NativeCompChannel channel;
    private final int capacity;
    private final Arena arena = Arena.ofShared();
    private final Completions wcs;
    private int unackedEvents;
    private boolean closed;

    private NativeCq(NativeContext context, MemorySegment cq, NativeCompChannel channel) {
        this.context = context;
        this.cq = cq;
        this.channel = channel;
        this.capacity = IbvCalls.cqCqe(cq);
        this.wcs = new Completions(arena);
    }

    static NativeCq create(NativeContext context, MemorySegment ctx, int cqe, NativeCompChannel channel) {
        if (cqe < 1) {
            throw new VerbsException(Errno.EINVAL, "ibv_create_cq: cqe " + cqe + " must be at least 1");
        }
        MemorySegment ch = channel == null ? MemorySegment.NULL : channel.handle();
        MemorySegment cq = IbvCalls.pointer("ibv_create_cq " + cqe,
                s -> (MemorySegment) Fn.ibv_create_cq$mh.invokeExact(s, ctx, cqe, MemorySegment.NULL, ch, 0));
        NativeCq c = new NativeCq(context, cq, channel);
        context.cqs.add(cq, c);
        return c;
    }

    /**
     * The struct ibv_cq * (for rdma_create_qp).
     *
     * @return the {@code struct ibv_cq *}
     */
    public MemorySegment handle() {
        return cq;
    }

    /**
     * Its context (public for the librdmacm CM, which checks that a QP's CQs are of the id's context).
     *
     * @return the context the CQ was created on
     */
    public NativeContext context() {
        return context;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public CompletionChannel channel() {
        return channel;
    }

    @Override
    public synchronized int poll(WorkCompletion[] wc, int max) {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, "ibv_poll_cq: the CQ was closed");
        }
        if (max < 0 || max > wc.length) {
            throw new VerbsException(Errno.EINVAL, "ibv_poll_cq: " + max + " entries asked for, the array holds "
                    + wc.length);
        }
        int got = 0;
        while (got < max) {
            int want = Math.min(Completions.BATCH, max - got);
            int n = wcs.poll(context.ops.pollCq, cq, want);
            if (n < 0) {
                throw Native.failure("ibv_poll_cq", -n);
            }
            for (int i = 0; i < n; i++) {
                wcs.copy(i, wc[got + i]);
            }
            got += n;
            if (n < want) {
                break;
            }
        }
        return got;
    }

    @Override
    public synchronized void requestNotify(boolean solicitedOnly) {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, "ibv_req_notify_cq: the CQ was closed");
        }
        int rc = Completions.reqNotify(context.ops.reqNotifyCq, cq, solicitedOnly);
        if (rc != 0) {
            throw Native.failure("ibv_req_notify_cq", rc < 0 ? -rc : rc);
        }
    }

    synchronized void eventTaken() {
        unackedEvents++;
    }

    @Override
    public synchronized void ackEvents(int n) {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, "ibv_ack_cq_events: the CQ was closed");
        }
        if (n < 0 || n > unackedEvents) {
            throw new VerbsException(Errno.EINVAL, "ibv_ack_cq_events: " + n + " events to acknowledge, "
                    + unackedEvents + " were taken and not yet acknowledged");
        }
        IbvCalls.ackCqEvents(cq, n);
        unackedEvents -= n;
    }

    @Override
    public synchronized void close() {
        if (closed || context.isClosed()) {
            return;
        }
        int rc = destroy();
        if (rc != 0) {
            throw Native.failure("ibv_destroy_cq", rc);
        }
    }

    private int destroy() {
        if (unackedEvents > 0) {
            IbvCalls.ackCqEvents(cq, unackedEvents);
            unackedEvents = 0;
        }
        context.ackAllAsync();
        int rc = IbvCalls.statusQuiet(s -> (int) Fn.ibv_destroy_cq$mh.invokeExact(s, cq));
        if (rc == 0) {
            closed = true;
            context.cqs.remove(cq);
            arena.close();
        }
        return rc;
    }

    synchronized void release() {
        if (!closed) {
            destroy();
            closed = true;
            context.cqs.remove(cq);
        }
    }
}
