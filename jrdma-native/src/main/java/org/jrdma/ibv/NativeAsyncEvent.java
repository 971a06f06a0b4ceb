package org.jrdma.ibv;

import java.lang.foreign.MemorySegment;
import org.jrdma.ibv.ffi.AsyncEvents;
import org.jrdma.verbs.AsyncEvent;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.SharedReceiveQueue;

/** One ibv_async_event, its element mapped back to the Java object. */
record NativeAsyncEvent(NativeContext context, AsyncEventType type, QueuePair qp, CompletionQueue cq,
        SharedReceiveQueue srq, int portNum, MemorySegment raw) implements AsyncEvent {

    static NativeAsyncEvent of(NativeContext ctx, AsyncEvents.Raw r) {
        AsyncEventType type = null;
        for (AsyncEventType t : AsyncEventType.values()) {
            if (t.value() == r.type()) {
                type = t;
            }
        }
        if (type == null) {
            type = AsyncEventType.DEVICE_FATAL; // an event newer than the API: never silently dropped
        }
        return switch (type) {
            case CQ_ERR -> new NativeAsyncEvent(ctx, type, null, ctx.cqs.get(r.element()), null, 0, r.event());
            case SRQ_ERR, SRQ_LIMIT_REACHED ->
                    new NativeAsyncEvent(ctx, type, null, null, ctx.srqs.get(r.element()), 0, r.event());
            case DEVICE_FATAL, PORT_ACTIVE, PORT_ERR, LID_CHANGE, PKEY_CHANGE, SM_CHANGE, CLIENT_REREGISTER,
                    GID_CHANGE -> new NativeAsyncEvent(ctx, type, null, null, null, r.portNum(), r.event());
            case WQ_FATAL -> new NativeAsyncEvent(ctx, type, null, null, null, 0, r.event());
            default -> new NativeAsyncEvent(ctx, type, ctx.qps.get(r.element()), null, null, 0, r.event());
        };
    }

    @Override
    public void ack() {
        context.ackAsync(raw);
    }
}
