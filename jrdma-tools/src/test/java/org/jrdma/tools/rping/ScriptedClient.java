package org.jrdma.tools.rping;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.time.Duration;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmException;
import org.jrdma.cm.CmId;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.wire.PortSpace;

/**
 * An rping client the test drives step by step — connect, one ping, half a ping, go quiet,
 * lose its QP — with the client's own code ({@link RpingClient#connect}, {@link RpingClient#ping}),
 * so that a test can hold a connection open at a point of its choosing while others come and go.
 */
final class ScriptedClient implements AutoCloseable {
    private final EventChannel events = EventChannel.create();
    private final CmId id = CmId.create(events, PortSpace.TCP, "scripted-client");
    private final RpingClient client;
    private final RpingConnection c;
    private long pings;
    private int start = PingText.FIRST;

    /** Connected (ESTABLISHED) to {@code address:port}, 64-byte buffers, -V. */
    ScriptedClient(String address, int port) throws Exception {
        RpingOptions o = new RpingOptions(false, InetAddress.getByName(address), null, port, 0, 64, false, true, false, false, 1,
                Duration.ofSeconds(30));
        client = new RpingClient(o, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        c = client.connect(events, id);
    }

    /** One validated ping; false if the server disconnected instead. */
    boolean ping() {
        boolean ok = client.ping(c, pings, start);
        if (ok) {
            pings++;
            start = PingText.nextStart(start);
        }
        return ok;
    }

    /** The first half of a ping: the start buffer's advertisement, delivered (its SEND completed). */
    void advertiseStartBuffer() {
        PingText.fill(c.startBuf, c.size, pings, start);
        c.send(new RdmaInfo(c.startMr.addr(), c.startMr.rkey(), c.size));
        if (!c.awaitSends()) {
            throw new AssertionError("the server disconnected before the advertisement arrived");
        }
    }

    /** rdma_disconnect, now, whatever the server is doing. */
    void disconnect() {
        id.disconnect();
    }

    /** The QP gone without a word to the server (no DREQ), as when a process dies and its device stays. */
    void loseQp() {
        id.destroyQp();
    }

    @Override
    public void close() {
        c.close();
        try {
            id.close(Duration.ZERO); // destroyed at once; throws if an event of it is still unacked
        } catch (CmException unacked) {
            for (CmEvent e; (e = events.poll()) != null; ) {
                e.ack(); // the server's DREQ, a TIMEWAIT_EXIT: closing the id waits for every ack
            }
            id.close(Duration.ofSeconds(5));
        } finally {
            events.close();
        }
    }
}
