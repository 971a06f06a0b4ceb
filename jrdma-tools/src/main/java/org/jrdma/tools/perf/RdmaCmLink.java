package org.jrdma.tools.perf;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Consumer;
import org.jrdma.bootstrap.Retrying;
import org.jrdma.bootstrap.tcp.HostName;
import org.jrdma.cm.CmError;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.CmException;
import org.jrdma.cm.CmId;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QueuePair;

/**
 * perftest's {@code -R} connections (captured: conformance/rxe/write_bw_rdmacm.pcap), with no
 * TCP at all. The client connects twice to the server's {@code --port} in port space TCP: first
 * the exchange QP ({@link CmPipe}; responder resources and initiator depth 0), which carries
 * the conversation of {@link PerfExchange}; then, after a blank key swap, the test QPs one by
 * one (depths = {@code -o} for READ and atomic tests, else 0), followed by another blank swap. At the end the
 * client disconnects the test connections, then the exchange connection; the server waits for
 * every DISCONNECTED event.
 */
final class RdmaCmLink implements AutoCloseable {
    private final boolean client;
    private final Duration timeout;
    private final EventChannel events = EventChannel.create();
    private CmId listener;
    private CmPipe pipe;
    /** Events {@link #peerDisconnected} took while looking, for {@link #next}; acked there or at close. */
    private final java.util.ArrayDeque<CmEvent> held = new java.util.ArrayDeque<>();
    /** A DISCONNECTED came while looking ({@link #peerDisconnected}). */
    private boolean sawDisconnected;
    /** The test connections' ids, one per QP, in the order they connected. */
    private final java.util.List<CmId> data = new java.util.ArrayList<>();
    private InetSocketAddress server;
    /** The client's source: the address of the device -d named, so the CM uses that device. */
    private InetSocketAddress source;

    /** The server's --port (for its messages). */
    private final int port;
    /**
     * Test connections' requests that came while the server waited for an earlier one's
     * ESTABLISHED: perftest's client with -q N connects all its QPs at once.
     */
    private final java.util.ArrayDeque<CmId> requests = new java.util.ArrayDeque<>();
    /** Where a client says that it retries (once), and until when. */
    private final Consumer<String> notices;

    private RdmaCmLink(boolean client, Duration timeout, int port, Consumer<String> notices) {
        this.client = client;
        this.timeout = timeout;
        this.port = port;
        this.notices = notices;
    }

    /**
     * Connects (client, from {@code deviceAddress}) or listens and accepts (server) the exchange
     * QP — on every device's address, as perftest binds the wildcard, or with {@code -d} on that
     * device's ({@code deviceAddress}); {@code listening} runs once the server listens. A client
     * that finds no server yet says so once to {@code notices}.
     */
    static RdmaCmLink open(PerfConfig c, InetAddress deviceAddress, Runnable listening, Consumer<String> notices) {
        RdmaCmLink link = new RdmaCmLink(!c.isServer(), c.timeout(), c.port(), notices);
        try {
            if (link.client) {
                link.source = new InetSocketAddress(deviceAddress, 0);
                // the TCP client's host check and resolver: "127.0.0.1:18515" is told the port goes in -p
                link.server = new InetSocketAddress(HostName.resolve(c.host())[0], c.port());
                link.connectExchange();
            } else {
                // perftest binds the wildcard address, and so do we without -d; with -d, that
                // device's address only: a soft device listening is a UDP port this process
                // holds, and the wildcard would take every device from the other processes on
                // this host (a client on another device of the same host could not open it).
                //
                // One listener for the whole run, though perftest's server makes one for the
                // exchange and, after the blank key swap, another for the test QPs: a REQ then
                // never meets REJ 8 here (perftest's client, which tries again after one, crashed
                // doing so in the lab: exit 139).
                link.listener = CmId.create(link.events, PortSpace.TCP, "perf-listener");
                link.listener.bindAddr(c.device() != null ? new InetSocketAddress(deviceAddress, c.port())
                        : new InetSocketAddress(c.port()));
                // room for the exchange and every test QP's request from the one client: the CM
                // lets one peer hold half the backlog (SEC-31), and a request over it is dropped
                // until the peer's CM sends it again (seconds, with the kernel's timers)
                link.listener.listen(2 * (1 + c.qps()));
                listening.run(); // "Waiting for client to connect..." once a REQ would find us
                CmId id = link.request();
                link.pipe = new CmPipe(id, link::peerDisconnected);
                id.accept(ConnParam.defaults().resources(0, 0).retries(7, 7));
                link.expect(CmEventType.ESTABLISHED, id);
            }
            return link;
        } catch (RuntimeException e) {
            link.close();
            throw e;
        }
    }

    /** The exchange connection, tried again while it is refused ({@link #whileRefused}). */
    private void connectExchange() {
        pipe = whileRefused(() -> {
            CmId id = resolved("perf-exchange");
            CmPipe p = new CmPipe(id, this::peerDisconnected);
            try {
                id.connect(ConnParam.defaults().resources(0, 0).retries(7, 7));
                expect(CmEventType.ESTABLISHED, id);
                return p;
            } catch (RuntimeException e) {
                p.close();
                throw e;
            }
        });
    }

    /**
     * A client's connect, made again with a growing pause while it is REJECTED, until the
     * deadline, as the TCP exchange's connect is: the exchange connection's server may not listen
     * yet (both sides were started together), and neither may a test connection's — perftest's
     * server makes a new listener for the test QPs only after the blank key swap, so the client's
     * REQ can come first and meet REJ 8 (perftest's client tries again, 10 × 100 ms). Said once,
     * in the TCP exchange's words; {@code attempt} cleans up after itself when it fails.
     */
    private <T> T whileRefused(java.util.function.Supplier<T> attempt) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = 10_000_000L;
        boolean told = false;
        while (true) {
            try {
                return attempt.get();
            } catch (CmException e) {
                if (e.error() != CmError.CONNECTION_REFUSED) {
                    throw e;
                }
                if (System.nanoTime() + pause > deadline) {
                    throw new CmException(CmError.CONNECTION_REFUSED, "no rdma_cm server listens on " + where()
                            + ": every connect was rejected for " + timeout.toMillis() + " ms (--timeout-ms); is the server"
                            + " running with -R on that address and port?", e);
                }
                if (!told) {
                    told = true;
                    notices.accept(where() + " rejected the connection: no rdma_cm server listens there yet; "
                            + Retrying.until(deadline, timeout));
                }
            }
            java.util.concurrent.locks.LockSupport.parkNanos(pause);
            pause = Math.min(2 * pause, 200_000_000L);
        }
    }

    CmPipe pipe() {
        return pipe;
    }

    /**
     * Test QP {@code q}: the client resolves an id to the server and connects; the server takes
     * the next CONNECT_REQUEST and accepts. Either way the id makes the QP (to INIT) on {@code
     * pd}, the CM takes it to RTS, and this returns once ESTABLISHED — so with {@code -q N} our
     * client makes the connections one after the other, as the QPs are created (perftest's
     * makes them all at once: their requests wait for their turn here). Depths: {@code depth}
     * (perftest's -o for READ and atomic tests, else 0) both ways.
     */
    QueuePair connectData(int q, ProtectionDomain pd, QpInitAttr attr, int depth) {
        ConnParam p = ConnParam.defaults().resources(depth, depth).retries(7, 7);
        if (!client) {
            CmId id = request();
            data.add(id);
            QueuePair qp = id.createQp(pd, attr);
            id.accept(p);
            expect(CmEventType.ESTABLISHED, id);
            return qp;
        }
        return whileRefused(() -> {
            CmId id = resolved("perf-data-" + q);
            try {
                QueuePair qp = id.createQp(pd, attr);
                id.connect(p);
                expect(CmEventType.ESTABLISHED, id);
                data.add(id);
                return qp;
            } catch (RuntimeException e) {
                id.close(); // and its QP: a refused attempt leaves nothing behind
                throw e;
            }
        });
    }

    /** The device context of the connection manager, which the test QPs' resources live on. */
    org.jrdma.verbs.Context context() {
        return pipe.id.verbs();
    }

    /**
     * The orderly end after the closing key exchange: the client disconnects the test
     * connections, then the exchange connection. Both sides then take one DISCONNECTED event
     * per connection in whatever order they come — a perftest server disconnects its own ids
     * at the same time, so DREQs cross — and the server disconnects its side of each as its
     * event comes (the QP to ERR, as rdma_disconnect after DISCONNECTED does).
     */
    void disconnect() {
        java.util.List<CmId> all = new java.util.ArrayList<>(data);
        all.add(pipe.id);
        if (client) {
            for (CmId id : all) {
                id.disconnect();
            }
        }
        java.util.Set<CmId> open = new java.util.HashSet<>(all);
        while (!open.isEmpty()) {
            CmEvent e = next(CmEventType.DISCONNECTED, null);
            CmId id = e.id();
            e.ack();
            if (open.remove(id) && !client) {
                id.disconnect();
            }
        }
    }

    private CmId resolved(Object context) {
        CmId id = CmId.create(events, PortSpace.TCP, context);
        try {
            id.resolveAddr(source, server, timeout);
            expect(CmEventType.ADDR_RESOLVED, id);
            id.resolveRoute(timeout);
            expect(CmEventType.ROUTE_RESOLVED, id);
            return id;
        } catch (RuntimeException e) {
            id.close();
            throw e;
        }
    }

    private CmId request() {
        if (!requests.isEmpty()) {
            return requests.poll();
        }
        CmEvent e = next(CmEventType.CONNECT_REQUEST, null);
        CmId id = e.id();
        e.ack();
        return id;
    }

    private void expect(CmEventType type, CmId id) {
        next(type, id).ack();
    }

    /**
     * The next event of {@code type} (for {@code id}, unless null). TIMEWAIT_EXIT of an earlier
     * connection may come in between and is passed over, and on the server a CONNECT_REQUEST is
     * kept for {@link #request}; anything else is an error naming it.
     */
    private CmEvent next(CmEventType type, CmId id) {
        while (true) {
            CmEvent e;
            try {
                e = held.isEmpty() ? events.getEvent(timeout) : held.poll();
            } catch (CmException x) {
                if (x.error() != CmError.TIMED_OUT) {
                    throw x;
                }
                throw new CmException(CmError.TIMED_OUT, waitingFor(type) + " within " + timeout.toMillis()
                        + " ms (--timeout-ms)" + (client && type == CmEventType.ESTABLISHED
                        ? ": is the server running with -R on that address?" : ""), x);
            }
            if (e.type() == type && (id == null || e.id() == id)) {
                return e;
            }
            e.ack();
            if (e.type() == CmEventType.CONNECT_REQUEST && !client) {
                requests.add(e.id()); // the next test QP's, come early: request() takes it
            } else if (e.type() != CmEventType.TIMEWAIT_EXIT) {
                throw EventChannel.unexpected(type, e);
            }
        }
    }

    /**
     * Whether the peer has disconnected one of our connections, looked at without waiting: during
     * a run the peer never disconnects first (the client disconnects after the closing exchange),
     * so a DISCONNECTED then means it ended — it failed, or it was killed and its kernel destroyed
     * its ids (rdma_cm does; a jrdma process killed with SIGKILL tells nobody, and then this never
     * says so). Other events are kept, unacked, for {@link #next}.
     */
    boolean peerDisconnected() {
        for (CmEvent e = events.poll(); e != null; e = events.poll()) {
            held.add(e);
            sawDisconnected |= e.type() == CmEventType.DISCONNECTED;
        }
        return sawDisconnected;
    }

    /** What a wait for {@code type} that timed out was waiting for, in words. */
    private String waitingFor(CmEventType type) {
        return switch (type) {
            case CONNECT_REQUEST -> "no client connected to rdma_cm port " + port;
            case ADDR_RESOLVED, ROUTE_RESOLVED -> "no route to " + where();
            case ESTABLISHED -> client ? "no answer from " + where() : "the client did not complete its connection";
            case DISCONNECTED -> "the peer did not disconnect";
            default -> "no " + type + " event";
        };
    }

    private String where() {
        return HostName.withPort(server);
    }

    @Override
    public void close() {
        held.forEach(CmEvent::ack); // an id waits for its taken events to be acked
        held.clear();
        if (pipe != null) {
            pipe.close();
        }
        java.util.List<CmId> ids = new java.util.ArrayList<>(data);
        ids.addAll(requests); // requests never taken: closing one rejects it
        ids.add(listener);
        for (CmId id : ids) {
            if (id != null) {
                try {
                    id.close();
                } catch (RuntimeException ignored) {
                    // best effort at the end
                }
            }
        }
        events.close();
    }
}
