package org.jrdma.ibv.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.jrdma.ibv.ffi.IbvLayouts.IBV_ASYNC_EVENT;
import static org.jrdma.ibv.ffi.IbvLayouts.offset;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.ibv.ffi.Ibv.Fn;

/**
 * ibv_get_async_event on a context whose async fd is non-blocking, and the bookkeeping of events
 * not yet acknowledged: ibv_destroy_qp/cq/srq wait until every event of their object is acked, so
 * a close acknowledges what the program left unacked ({@link #ackAll()}) instead of hanging.
 * Callers hold the context's lock.
 */
public final class AsyncEvents {
    private static final int EAGAIN = 11;
    private final List<MemorySegment> unacked = new ArrayList<>();

    /** One event: its type, the element pointer (QP/CQ/SRQ), the port number, and the struct to ack. */
    public record Raw(int type, MemorySegment element, int portNum, MemorySegment event) {
    }

    /** The next event, or null when none is pending (EAGAIN). */
    public Raw tryGet(MemorySegment ctx) {
        MemorySegment ev = Arena.ofAuto().allocate(IBV_ASYNC_EVENT);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(Ibv.CALL_STATE);
            int rc = (int) Fn.ibv_get_async_event$mh.invokeExact(state, ctx, ev);
            if (rc != 0) {
                int e = Native.errnoOfReturn(rc, state);
                if (e == EAGAIN) {
                    return null;
                }
                throw Native.failure("ibv_get_async_event", e);
            }
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
        unacked.add(ev);
        return new Raw(ev.get(JAVA_INT, offset(IBV_ASYNC_EVENT, "event_type")),
                ev.get(ADDRESS, offset(IBV_ASYNC_EVENT, "element.qp")),
                ev.get(JAVA_INT, offset(IBV_ASYNC_EVENT, "element.port_num")), ev);
    }

    /** ibv_ack_async_event, once per event (a second ack is ignored). */
    public void ack(MemorySegment event) {
        if (unacked.remove(event)) {
            ackNative(event);
        }
    }

    /** Acknowledges every event still unacked. */
    public void ackAll() {
        for (MemorySegment ev : unacked) {
            ackNative(ev);
        }
        unacked.clear();
    }

    private static void ackNative(MemorySegment event) {
        try {
            Fn.ibv_ack_async_event$mh.invokeExact(event);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }
}
