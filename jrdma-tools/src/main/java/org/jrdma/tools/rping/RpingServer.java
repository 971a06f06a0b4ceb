package org.jrdma.tools.rping;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.CmId;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcOpcode;

/**
 * rping's server (rping_run_server / rping_test_server): listens, accepts one connection with
 * a receive already posted, then for every ping READs the client's start buffer, SENDs a
 * go-ahead, takes the client's sink buffer, WRITEs the data back there and SENDs a go-ahead
 * again — until the client disconnects. With {@code -P} it waits for the next client.
 */
final class RpingServer {
    private final RpingOptions o;
    private final PrintWriter out;

    RpingServer(RpingOptions o, PrintWriter out) {
        this.o = o;
        this.out = out;
    }

    void run() {
        try (EventChannel events = EventChannel.create(); CmId listener = CmId.create(events, PortSpace.TCP, "rping-server")) {
            listener.bindAddr(new InetSocketAddress(o.address(), o.port()));
            listener.listen(3);
            if (o.debug()) {
                out.println("rping: listening on " + listener.localAddress());
            }
            do {
                serveOne(events);
            } while (o.persistent());
        }
    }

    private void serveOne(EventChannel events) {
        CmEvent req = events.getEvent(CmEventType.CONNECT_REQUEST, o.connectWait());
        CmId child = req.id();
        req.ack();
        try (child; RpingConnection c = new RpingConnection(child, events, o.size(), false, o.timeout())) {
            child.accept(ConnParam.defaults().resources(1, 1));
            events.getEvent(CmEventType.ESTABLISHED, o.timeout()).ack();
            if (o.debug()) {
                out.println("rping: connection from " + child.peerAddress() + " established");
            }
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
            if (!c.disconnected()) {
                events.getEvent(CmEventType.DISCONNECTED, o.timeout()).ack();
            }
            child.disconnect();
            if (o.debug()) {
                out.println("rping: " + pings + " pings served; client disconnected");
            }
            out.flush();
        }
    }
}
