package org.jrdma.ibv.cm;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.jrdma.cm.CmError;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.CmException;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.UdParam;
import org.jrdma.cm.spi.ChannelBackend;
import org.jrdma.cm.spi.EventSink;
import org.jrdma.cm.spi.IdBackend;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.ibv.ffi.CmCalls;
import org.jrdma.ibv.ffi.Libc;
import org.jrdma.ibv.ffi.Native;

/**
 * {@code struct rdma_event_channel}. Its fd is non-blocking: a wait sleeps in poll(2) in slices
 * of ≤ 100 ms (so that it ends at its deadline, on an interrupt, or when the channel closes) and
 * then takes what rdma_get_cm_event has.
 *
 * <p>One lock guards every librdmacm call on the channel and its ids. That is what makes misuse
 * safe: an id is never destroyed while another thread calls on it or fetches an event that names
 * it, and every event taken is recorded, under the lock, with the id it counts for — so that
 * destroying an id can ack them first (rdma_destroy_id waits for ever for unacked events).
 */
final class NativeCmChannel implements ChannelBackend {
    private final EventSink sink;
    private final MemorySegment channel;
    private final int fd;
    final ReentrantLock lock = new ReentrantLock();
    /** The live ids on this channel, by their rdma_cm_id address; guarded by {@link #lock}. */
    private final Map<Long, NativeCmId> ids = new HashMap<>();
    private volatile boolean closed;

    private NativeCmChannel(EventSink sink, MemorySegment channel, int fd) {
        this.sink = sink;
        this.channel = channel;
        this.fd = fd;
    }

    /** rdma_create_event_channel, its fd made non-blocking. */
    static NativeCmChannel open(EventSink sink) {
        String cause = NativeCmBackend.libraryCause();
        if (cause != null) {
            throw new CmException(CmError.NO_DEVICE, cause);
        }
        MemorySegment ch = CmCalls.createEventChannel();
        int fd = CmCalls.channelFd(ch);
        int rc = Libc.setNonBlocking(fd);
        if (rc != 0) {
            CmCalls.destroyEventChannel(ch);
            throw CmCalls.failure("rdma_create_event_channel: O_NONBLOCK on its fd", rc);
        }
        return new NativeCmChannel(sink, ch, fd);
    }

    @Override
    public IdBackend createId(PortSpace portSpace, Object context) {
        if (portSpace != PortSpace.TCP && portSpace != PortSpace.UDP) {
            throw new CmException(CmError.INVALID_ARGUMENT, "rdma_create_id: port space " + portSpace + " is not supported (TCP or UDP)");
        }
        lock.lock();
        try {
            checkOpen("rdma_create_id");
            NativeCmId id = new NativeCmId(this, CmCalls.createId(channel, portSpace.code()), portSpace);
            ids.put(id.address(), id);
            return id;
        } finally {
            lock.unlock();
        }
    }

    void forget(NativeCmId id) {
        ids.remove(id.address());
    }

    void checkOpen(String call) {
        if (closed) {
            throw new CmException(CmError.CLOSED, call + ": the event channel is closed");
        }
    }

    @Override
    public CmEvent next(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            CmEvent e = poll();
            if (e != null) {
                return e;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new CmException(CmError.TIMED_OUT, "rdma_get_cm_event: interrupted");
            }
            Libc.pollIn(fd, (int) Math.max(1, Math.min(100, left / 1_000_000)));
        }
    }

    @Override
    public CmEvent poll() {
        lock.lock();
        try {
            checkOpen("rdma_get_cm_event");
            // librdmacm moves an id's QP itself inside rdma_get_cm_event (a REP, a REJ): none may name a freed one
            ids.values().forEach(NativeCmId::syncQp);
            while (true) {
                MemorySegment raw = CmCalls.tryGetEvent(channel);
                if (raw == null) {
                    return null;
                }
                CmEvent e = map(raw);
                if (e != null) {
                    return e;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The API's event for a librdmacm one, recorded with the id whose events it counts for — the
     * listener for a CONNECT_REQUEST (librdmacm's ack completes the listener's event), else the
     * event's id. Null (and acked) for an id this channel no longer knows.
     */
    private CmEvent map(MemorySegment raw) {
        int code = CmCalls.eventType(raw);
        CmEventType type = code >= 0 && code < CmEventType.values().length ? CmEventType.values()[code] : CmEventType.INTERNAL;
        NativeCmId owner;
        NativeCmId subject;
        CmCalls.Event ev;
        if (type == CmEventType.CONNECT_REQUEST) {
            owner = ids.get(CmCalls.eventListenId(raw).address());
            if (owner == null) {
                CmCalls.ackEvent(raw);
                return null;
            }
            ev = CmCalls.read(raw, owner.portSpace == PortSpace.UDP);
            subject = new NativeCmId(this, ev.id(), owner.portSpace);
            ids.put(subject.address(), subject);
            sink.wrap(subject, owner.portSpace, owner.api().context());
        } else {
            subject = ids.get(CmCalls.eventId(raw).address());
            if (subject == null) {
                CmCalls.ackEvent(raw);
                return null;
            }
            owner = subject;
            ev = CmCalls.read(raw, subject.portSpace == PortSpace.UDP);
        }
        owner.taken(raw);
        boolean ud = subject.portSpace == PortSpace.UDP;
        boolean carriesParam = type == CmEventType.CONNECT_REQUEST || type == CmEventType.CONNECT_RESPONSE
                || type == CmEventType.ESTABLISHED;
        ConnParam param = !ud && carriesParam ? ev.connParam() : null;
        UdParam udp = ud && carriesParam ? new UdParam(ev.ahAttr(), null, ev.udQpNum() & 0xFFFFFF, ev.qkey()) : null;
        NativeCmId o = owner;
        return sink.event(type, subject.api(), type == CmEventType.CONNECT_REQUEST ? owner.api() : null, ev.status(),
                ev.privateData(), param, udp, detail(type, ev.status()), () -> o.ack(raw));
    }

    /** For an error event whose status is a negative errno: the errno in words (rdma_cm gives only the number). */
    private static String detail(CmEventType type, int status) {
        boolean error = switch (type) {
            case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, DISCONNECTED -> true;
            default -> false;
        };
        return error && status < 0 ? "rdma_cm: " + type + ", " + Native.errnoText(-status) : null;
    }

    /** rdma_destroy_event_channel after destroying its ids: their commands go through its fd, which then closes. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            for (NativeCmId id : new ArrayList<>(ids.values())) {
                id.destroyLocked();
            }
            closed = true;
            CmCalls.destroyEventChannel(channel);
        } finally {
            lock.unlock();
        }
    }
}
