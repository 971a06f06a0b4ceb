package org.jrdma.tools.rping;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.CmId;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcOpcode;

/**
 * One client of rping's server (rping_test_server; with {@code -P} on a thread of its own, as
 * rping's rping_persistent_server_thread): accepts the connection with a receive already
 * posted, then for every ping READs the client's start buffer, SENDs a go-ahead, takes the
 * client's sink buffer, WRITEs the data back there and SENDs a go-ahead again — until the
 * client disconnects. Its CM events are those of its id, which the server's dispatcher hands
 * over ({@link #deliver}); the session never reads the listener's channel itself.
 */
final class ServerSession {
    final CmId id;
    /** The thread serving this client; set before it starts. */
    Thread thread;
    private final RpingOptions o;
    private final PrintWriter out;
    private final PrintWriter err;
    private final LinkedBlockingQueue<CmEvent> events = new LinkedBlockingQueue<>();

    ServerSession(CmId id, RpingOptions o, PrintWriter out, PrintWriter err) {
        this.id = id;
        this.o = o;
        this.out = out;
        this.err = err;
    }

    /** An event of this session's id, from the dispatcher. */
    void deliver(CmEvent e) {
        events.add(e);
    }

    /** Acks what was delivered and not taken: closing the id waits until its every event is acked. */
    void drain() {
        for (CmEvent e; (e = events.poll()) != null; ) {
            e.ack();
        }
    }

    String peer() {
        return peerOf(id);
    }

    /** A connection's peer as {@code a.b.c.d:port} or {@code [v6]:port}. */
    static String peerOf(CmId id) {
        return RpingConnection.endpoint(id.peerAddress());
    }

    /**
     * Serves the client until it disconnects, and returns; anything else that ends the session
     * (the client died, sent nonsense, went quiet for the timeout) is thrown.
     */
    void serve() {
        try (RpingConnection c = new RpingConnection(id, events::poll, o.size(), false, o.timeout())) {
            id.accept(ConnParam.defaults().resources(1, 1));
            awaitEstablished();
            if (o.debug()) {
                out.println("rping: connection from " + peer() + " established");
            }
            long pings = pingUntilDisconnected(c);
            err.println("server DISCONNECT EVENT..."); // rping's line, on stderr as there
            id.disconnect(); // the DREP
            if (o.debug()) {
                out.println("rping: " + pings + " pings served; client " + peer() + " disconnected");
            }
            out.flush();
        }
    }

    private void awaitEstablished() {
        Duration wait = o.timeout();
        CmEvent e;
        try {
            e = events.poll(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new VerbsException(Errno.ETIMEDOUT, "rping: interrupted while waiting for the client's RTU");
        }
        if (e == null) {
            throw new VerbsException(Errno.ETIMEDOUT, "rping: the client did not complete the connection (no RTU) within "
                    + wait.toMillis() + " ms");
        }
        e.ack();
        if (e.type() != CmEventType.ESTABLISHED) {
            throw EventChannel.unexpected(CmEventType.ESTABLISHED, e);
        }
    }

    private long pingUntilDisconnected(RpingConnection c) {
        long pings = 0;
        while (c.await(WcOpcode.RECV)) {
            RdmaInfo start = c.received();
            c.postRecv();
            if (start.size() > o.size() || start.size() < 1) {
                // rping READs remote_len bytes into a buffer of its own -S: both sides need the same -S.
                throw new VerbsException(Errno.EMSGSIZE, "rping: the client's buffer is " + start.size()
                        + " bytes, this server's is " + o.size() + ": give both sides the same -S");
            }
            int len = start.size();
            c.rdma(true, start, len);
            if (!c.await(WcOpcode.RDMA_READ)) {
                break;
            }
            if (o.verbose()) {
                out.println("server ping data: " + PingText.text(c.rdmaBuf, len));
            }
            c.send(null); // "go ahead": the client may now advertise its sink buffer
            if (!c.await(WcOpcode.RECV)) {
                break;
            }
            RdmaInfo sink = c.received();
            c.postRecv();
            // rping writes strlen(rdma_buf) + 1: the text and its NUL.
            int echo = Math.min(PingText.text(c.rdmaBuf, len - 1).length() + 1, Math.min(len, sink.size()));
            c.rdma(false, sink, echo);
            if (!c.await(WcOpcode.RDMA_WRITE)) {
                break;
            }
            c.send(null); // "go ahead": the echo is in place
            pings++;
        }
        return pings;
    }
}
