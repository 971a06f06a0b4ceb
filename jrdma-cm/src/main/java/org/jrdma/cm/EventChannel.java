package org.jrdma.cm;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jrdma.cm.spi.ChannelBackend;
import org.jrdma.cm.spi.CmBackend;

/**
 * {@code struct rdma_event_channel}: where the events of its ids queue up, in the order the CM
 * produced them. {@link #getEvent} blocks with a deadline, {@link #poll} does not.
 */
public final class EventChannel implements AutoCloseable {
    private final CmOptions options;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final ArrayDeque<CmEvent> queue = new ArrayDeque<>();
    private boolean closed;
    /** The CM of the options' devices when it is not the built-in one (see {@link Backends}), else null. */
    private final ChannelBackend backend;

    private EventChannel(CmOptions options) {
        this(options, Backends.forDevices(options.devices()));
    }

    /** A channel on {@code b} (null: the built-in CM); tests give their own backend here. */
    EventChannel(CmOptions options, CmBackend b) {
        this.options = options;
        this.backend = b == null ? null : b.openChannel(new BackendSink(this));
    }

    ChannelBackend backend() {
        return backend;
    }

    /**
     * {@code rdma_create_event_channel}, with the default {@link CmOptions}.
     *
     * @return the new channel
     * @throws CmException if a backend cannot open its channel
     */
    public static EventChannel create() {
        return new EventChannel(CmOptions.defaults());
    }

    /**
     * An event channel whose ids use these options (timeouts, devices, MAD transport).
     *
     * @param options the CM's options
     * @return the new channel
     * @throws CmException if a backend cannot open its channel
     */
    public static EventChannel create(CmOptions options) {
        return new EventChannel(options);
    }

    /**
     * The options this channel's ids use.
     *
     * @return the options
     */
    public CmOptions options() {
        return options;
    }

    /**
     * {@code rdma_get_cm_event} with a deadline: the next event, waiting up to {@code timeout} for one.
     *
     * @param timeout how long to wait
     * @return the event, to be acked
     * @throws CmException {@link CmError#TIMED_OUT} when none came (or the thread was
     *     interrupted), CLOSED when the channel is closed
     */
    public CmEvent getEvent(Duration timeout) {
        if (backend != null) {
            CmEvent e = backend.next(timeout);
            if (e == null) {
                throw new CmException(CmError.TIMED_OUT, "get_cm_event: no event within " + timeout.toMillis() + " ms");
            }
            return e;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        CmEvent e;
        lock.lock();
        try {
            while ((e = queue.poll()) == null) {
                checkOpen();
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new CmException(CmError.TIMED_OUT, "get_cm_event: no event within " + timeout.toMillis() + " ms");
                }
                arrived.awaitNanos(left);
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new CmException(CmError.TIMED_OUT, "get_cm_event: interrupted");
        } finally {
            lock.unlock();
        }
        retrieved(e);
        return e;
    }

    /**
     * The blocking style of librdmacm's synchronous mode: the next event, which must be of
     * {@code expected}; it is returned un-acked. Any other event is acked and turned into a
     * CmException that names it — REJECTED as CONNECTION_REFUSED (with the reject reason),
     * UNREACHABLE as TIMED_OUT, the rest as INVALID_ARGUMENT; no event by the deadline is
     * TIMED_OUT.
     *
     * @param expected the event type awaited
     * @param timeout how long to wait
     * @return the event, to be acked
     * @throws CmException for another event, or none by the deadline
     */
    public CmEvent getEvent(CmEventType expected, Duration timeout) {
        CmEvent e = getEvent(timeout);
        if (e.type() == expected) {
            return e;
        }
        e.ack();
        throw unexpected(expected, e);
    }

    /**
     * The error for an event that is not the one awaited: a REJECTED connection is refused;
     * UNREACHABLE timed out; an address or route error is the errno its status names (timed
     * out when it names none we know); anything else is out of order. The event's
     * {@link CmEvent#detail()}, when it has one, leads the message.
     *
     * @param expected the event type awaited
     * @param got the event that came instead
     * @return the exception, to throw
     */
    public static CmException unexpected(CmEventType expected, CmEvent got) {
        CmError kind = switch (got.type()) {
            case REJECTED -> CmError.CONNECTION_REFUSED;
            case UNREACHABLE -> CmError.TIMED_OUT;
            case ADDR_ERROR, ROUTE_ERROR -> ofErrno(-got.status());
            default -> CmError.INVALID_ARGUMENT;
        };
        String what = got.type() + " (status " + got.status() + ")";
        return new CmException(kind, got.detail() != null ? got.detail() + "; " + what : "expected " + expected + ", got " + what);
    }

    private static CmError ofErrno(int errno) {
        for (CmError e : CmError.values()) {
            if (e.errno() == errno) {
                return e;
            }
        }
        return CmError.TIMED_OUT;
    }

    /**
     * The next event if one is queued; never blocks.
     *
     * @return the event, to be acked, or null
     * @throws CmException CLOSED when the channel is closed
     */
    public CmEvent poll() {
        if (backend != null) {
            return backend.poll();
        }
        CmEvent e;
        lock.lock();
        try {
            checkOpen();
            e = queue.poll();
        } finally {
            lock.unlock();
        }
        if (e != null) {
            retrieved(e);
        }
        return e;
    }

    private static void retrieved(CmEvent e) {
        if (e.type() == CmEventType.CONNECT_REQUEST && e.listenId() != null) {
            e.listenId().requestRetrieved(); // frees a backlog slot, as ucma_get_event does
            java.net.InetSocketAddress peer = e.id() == null ? null : e.id().peerAddress();
            if (peer != null) {
                e.listenId().peerRequestRetrieved(peer.getAddress()); // and the peer's share of it (SEC-31)
            }
        }
    }

    /**
     * Takes out the events of {@code id} that nobody has retrieved yet and returns how many: a
     * destroyed id's events are not reported any more, as ucma_free_ctx drops them, so its
     * destroy waits only for the ones the application holds. A connection request among them
     * frees its listener's backlog slot, as if taken.
     */
    int discard(CmId id) {
        java.util.List<CmEvent> dropped = new java.util.ArrayList<>();
        lock.lock();
        try {
            queue.removeIf(e -> e.id() == id && dropped.add(e));
        } finally {
            lock.unlock();
        }
        dropped.forEach(EventChannel::retrieved);
        return dropped.size();
    }

    void post(CmEvent e) {
        lock.lock();
        try {
            queue.add(e);
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new CmException(CmError.CLOSED, "the event channel is closed");
        }
    }

    /**
     * rdma_destroy_event_channel; a thread waiting in getEvent fails with CLOSED. On librdmacm the
     * ids still on the channel are destroyed first: their commands go through the channel's fd.
     */
    @Override
    public void close() {
        if (backend != null) {
            backend.close();
        }
        lock.lock();
        try {
            closed = true;
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
