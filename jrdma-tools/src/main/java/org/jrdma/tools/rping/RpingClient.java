package org.jrdma.tools.rping;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import org.jrdma.cm.CmError;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.CmException;
import org.jrdma.cm.CmId;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.cm.wire.RejectReason;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcOpcode;

/**
 * rping's client (rping_run_client / rping_test_client): resolves the server's address and
 * route, connects, then per ping writes the ping text into its start buffer, SENDs that
 * buffer's address and rkey, waits for the go-ahead, SENDs its RDMA buffer's, waits for the
 * go-ahead again and, with {@code -V}, checks that the server's WRITE brought back the same
 * bytes. After {@code -C} pings it disconnects.
 *
 * <p>A server that disconnects first ends the run as in rping (its DISCONNECTED state): with
 * {@code -C 0} (ping until stopped) that is the normal end, exit 0; with {@code -C N} before the
 * N-th ping it is a failure naming how many were done (rping says 0 there too; we choose to say
 * that the count was not reached).
 */
final class RpingClient {
    private final RpingOptions o;
    private final PrintWriter out;
    private final PrintWriter err;
    /** Pings completed so far. */
    private long pings;

    RpingClient(RpingOptions o, PrintWriter out, PrintWriter err) {
        this.o = o;
        this.out = out;
        this.err = err;
    }

    /** Returns the number of pings completed. A signal's end (^C) is no failure: the server is told as rping's would be. */
    long run() {
        SignalEnd signal = new SignalEnd(Thread.currentThread());
        try (signal; EventChannel events = EventChannel.create(); CmId id = CmId.create(events, PortSpace.TCP, "rping-client")) {
            return run(events, id);
        } catch (RuntimeException e) {
            if (signal.signalled()) {
                return pings; // the ids are closed (the server got our DREQ); the process is ending
            }
            throw e;
        }
    }

    private long run(EventChannel events, CmId id) {
        try (RpingConnection c = connect(events, id)) {
            long done = loop(c);
            boolean serverFirst = c.disconnected();
            id.disconnect(); // our DREQ, or the DREP to the server's
            if (!serverFirst) {
                events.getEvent(CmEventType.DISCONNECTED, o.timeout()).ack();
            }
            err.println("client DISCONNECT EVENT..."); // rping's line, on stderr as there
            if (serverFirst && o.count() != 0) {
                throw new VerbsException(Errno.EIO, "rping: the server disconnected after " + done + " of " + o.count() + " pings"
                        + (done == 0 ? " (at the first one: a server whose -S is smaller than this client's " + o.size() + " does that)" : ""));
            }
            return done;
        }
    }

    /**
     * rping_bind_client, rping_setup_qp/buffers and rping_connect_client on {@code id}: the
     * connection to {@code -a}:{@code -p}, established, with a receive posted.
     */
    RpingConnection connect(EventChannel events, CmId id) {
        InetSocketAddress server = new InetSocketAddress(o.address(), o.port());
        id.resolveAddr(o.source() == null ? null : new InetSocketAddress(o.source(), 0), server, o.timeout());
        events.getEvent(CmEventType.ADDR_RESOLVED, o.timeout()).ack();
        id.resolveRoute(o.timeout());
        events.getEvent(CmEventType.ROUTE_RESOLVED, o.timeout()).ack();
        RpingConnection c = new RpingConnection(id, events::poll, o.size(), true, o.timeout());
        try {
            id.connect(ConnParam.defaults().resources(1, 1).retries(7, 7));
            awaitEstablished(events, server);
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** ESTABLISHED, or an error that says why not: nobody listens, the server refused, no answer. */
    private void awaitEstablished(EventChannel events, InetSocketAddress server) {
        CmEvent e;
        try {
            e = events.getEvent(o.timeout());
        } catch (CmException quiet) {
            if (quiet.error() != CmError.TIMED_OUT) {
                throw quiet;
            }
            throw new CmException(CmError.TIMED_OUT, "rping: no answer from " + RpingConnection.endpoint(server) + " within "
                    + o.timeout().toMillis() + " ms: is an rping server (-s) running there? (--timeout-ms sets this wait)");
        }
        e.ack();
        switch (e.type()) {
            case ESTABLISHED -> {
            }
            case REJECTED -> throw refused(e, server);
            case UNREACHABLE -> throw new CmException(CmError.TIMED_OUT, "rping: no answer from " + RpingConnection.endpoint(server)
                    + ": the connection request went unanswered (UNREACHABLE, status " + e.status() + "): is an rping server running there?");
            default -> throw EventChannel.unexpected(CmEventType.ESTABLISHED, e);
        }
    }

    /** The REJECTED event as a sentence: nobody listening (reason 8), or the server's own words (its REJ's private data). */
    private static CmException refused(CmEvent e, InetSocketAddress server) {
        String reason = "REJECTED, reason " + e.status() + " " + RejectReason.name(e.status());
        if (e.status() == RejectReason.INVALID_SERVICE_ID.code()) {
            return new CmException(CmError.CONNECTION_REFUSED, "rping: nobody listens on " + RpingConnection.endpoint(server)
                    + " (" + reason + "): start the server first (jrdma rping -s), or check -a and -p");
        }
        String said = printable(e.privateData());
        return new CmException(CmError.CONNECTION_REFUSED, "rping: the server refused the connection"
                + (said.isEmpty() ? "" : ": " + said) + " (" + reason + ")");
    }

    /** The leading printable ASCII of a peer's private data (up to its NUL), never more. */
    private static String printable(byte[] data) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; data != null && i < data.length && data[i] >= 0x20 && data[i] < 0x7f; i++) {
            sb.append((char) data[i]);
        }
        return sb.toString();
    }

    /** The pings, until {@code -C} of them are done or the server disconnects. */
    private long loop(RpingConnection c) {
        int start = PingText.FIRST;
        long ping = 0;
        for (; (o.count() == 0 || ping < o.count()) && ping(c, ping, start); ping++) {
            start = PingText.nextStart(start);
            pings = ping + 1;
        }
        out.flush();
        return ping;
    }

    /**
     * Ping number {@code ping}, whose letters begin at {@code start}: advertises the start
     * buffer, waits for the go-ahead, advertises the sink, waits for the go-ahead again; then
     * {@code -V} and {@code -v}. False when the server disconnected instead.
     */
    boolean ping(RpingConnection c, long ping, int start) {
        PingText.fill(c.startBuf, o.size(), ping, start);
        c.send(new RdmaInfo(c.startMr.addr(), c.startMr.rkey(), o.size()));
        if (!c.await(WcOpcode.RECV)) {
            return false;
        }
        c.postRecv();
        c.send(new RdmaInfo(c.rdmaMr.addr(), c.rdmaMr.rkey(), o.size()));
        if (!c.await(WcOpcode.RECV)) {
            return false;
        }
        c.postRecv();
        if (o.validate() && c.startBuf.mismatch(c.rdmaBuf) != -1) {
            throw new VerbsException(Errno.EIO, "data mismatch! (ping " + ping + ", byte " + c.startBuf.mismatch(c.rdmaBuf) + ")");
        }
        if (o.verbose()) {
            out.println("ping data: " + PingText.text(c.rdmaBuf, o.size()));
        }
        c.rdmaBuf.fill((byte) 0); // so that the next ping's -V sees only what the server wrote
        return true;
    }
}
