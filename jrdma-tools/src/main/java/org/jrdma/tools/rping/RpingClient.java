package org.jrdma.tools.rping;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.CmId;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcOpcode;

/**
 * rping's client (rping_run_client / rping_test_client): resolves the server's address and
 * route, connects, then per ping writes the ping text into its start buffer, SENDs that
 * buffer's address and rkey, waits for the go-ahead, SENDs its RDMA buffer's, waits for the
 * go-ahead again and, with {@code -V}, checks that the server's WRITE brought back the same
 * bytes. After {@code -C} pings it disconnects.
 */
final class RpingClient {
    private final RpingOptions o;
    private final PrintWriter out;

    RpingClient(RpingOptions o, PrintWriter out) {
        this.o = o;
        this.out = out;
    }

    /** Returns the number of pings completed. */
    long run() {
        try (EventChannel events = EventChannel.create(); CmId id = CmId.create(events, PortSpace.TCP, "rping-client")) {
            id.resolveAddr(null, new InetSocketAddress(o.address(), o.port()), o.timeout());
            events.getEvent(CmEventType.ADDR_RESOLVED, o.timeout()).ack();
            id.resolveRoute(o.timeout());
            events.getEvent(CmEventType.ROUTE_RESOLVED, o.timeout()).ack();
            try (RpingConnection c = new RpingConnection(id, events, o.size(), true, o.timeout())) {
                id.connect(ConnParam.defaults().resources(1, 1).retries(7, 7));
                events.getEvent(CmEventType.ESTABLISHED, o.timeout()).ack();
                long pings = loop(c);
                id.disconnect();
                if (!c.disconnected()) {
                    events.getEvent(CmEventType.DISCONNECTED, o.timeout()).ack();
                }
                return pings;
            }
        }
    }

    private long loop(RpingConnection c) {
        int start = PingText.FIRST;
        long ping = 0;
        for (; o.count() == 0 || ping < o.count(); ping++) {
            PingText.fill(c.startBuf, o.size(), ping, start);
            start = PingText.nextStart(start);
            c.send(new RdmaInfo(c.startMr.addr(), c.startMr.rkey(), o.size()));
            if (!c.await(WcOpcode.RECV)) {
                throw gone(ping);
            }
            c.postRecv();
            c.send(new RdmaInfo(c.rdmaMr.addr(), c.rdmaMr.rkey(), o.size()));
            if (!c.await(WcOpcode.RECV)) {
                throw gone(ping);
            }
            c.postRecv();
            if (o.validate() && c.startBuf.mismatch(c.rdmaBuf) != -1) {
                throw new VerbsException(Errno.EIO, "data mismatch! (ping " + ping + ", byte "
                        + c.startBuf.mismatch(c.rdmaBuf) + ")");
            }
            if (o.verbose()) {
                out.println("ping data: " + PingText.text(c.rdmaBuf, o.size()));
            }
            c.rdmaBuf.fill((byte) 0); // so that the next ping's -V sees only what the server wrote
        }
        out.flush();
        return ping;
    }

    private static VerbsException gone(long ping) {
        return new VerbsException(Errno.EIO, "rping: the server disconnected during ping " + ping);
    }
}
