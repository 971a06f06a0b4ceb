package org.jrdma.tools.demo;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.tcp.HostName;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.CmId;
import org.jrdma.cm.ConnParam;
import org.jrdma.cm.EventChannel;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.tools.rc.RcEndpoint;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QueuePair;

/**
 * {@code demo --bootstrap cm}: the two endpoints connect through the connection manager — a
 * listener bound to the device's address, the client resolving address and route, REQ → REP →
 * RTU as MADs on QP1 — so no socket of any kind is opened besides the device's own UDP one.
 * The CM creates each QP (INIT) and moves it to RTR and RTS; the demo reads the result back
 * with query_qp to print rc_pingpong's address lines.
 */
final class CmBootstrap implements AutoCloseable {
    private final InetAddress address;
    private final Duration timeout;
    private final EventChannel serverEvents = EventChannel.create();
    private final EventChannel clientEvents = EventChannel.create();
    private final CmId listener;
    private volatile CmId serverId;
    private volatile CmId clientId;
    private boolean closed;

    CmBootstrap(InetAddress address, int port, Duration timeout) {
        this.address = address;
        this.timeout = timeout;
        this.listener = CmId.create(serverEvents, PortSpace.TCP, "demo-server");
        listener.bindAddr(new InetSocketAddress(address, port));
        listener.listen(1);
    }

    /** The listener's device context (id->verbs): where librdmacm wants the endpoints' PDs. */
    org.jrdma.verbs.Context verbs() {
        return listener.verbs();
    }

    String describe() {
        return "rdma_cm: client → listener " + HostName.withPort(address, listener.port())
                + " (REQ → REP → RTU as MADs on QP1; no TCP)";
    }

    void server(RcEndpoint e) {
        e.cmStarted();
        e.cmResolved();
        CmEvent req = serverEvents.getEvent(CmEventType.CONNECT_REQUEST, timeout);
        CmId id = req.id();
        req.ack();
        serverId = id;
        e.connectByCm(attr -> id.createQp(e.pd(), attr), (qp, ep) -> {
            id.accept(ConnParam.defaults());
            serverEvents.getEvent(CmEventType.ESTABLISHED, timeout).ack();
            return infos(qp, id);
        });
    }

    void client(RcEndpoint e) {
        e.cmStarted();
        CmId id = CmId.create(clientEvents, PortSpace.TCP, "demo-client");
        clientId = id;
        id.resolveAddr(new InetSocketAddress(address, 0), new InetSocketAddress(address, listener.port()), timeout);
        clientEvents.getEvent(CmEventType.ADDR_RESOLVED, timeout).ack();
        id.resolveRoute(timeout);
        clientEvents.getEvent(CmEventType.ROUTE_RESOLVED, timeout).ack();
        e.cmResolved();
        e.connectByCm(attr -> id.createQp(e.pd(), attr), (qp, ep) -> {
            id.connect(ConnParam.defaults());
            clientEvents.getEvent(CmEventType.ESTABLISHED, timeout).ack();
            return infos(qp, id);
        });
    }

    /** rc_pingpong's view of the connection: our QPN and send PSN; the peer's QPN and its send PSN (our receive PSN). */
    private static ConnInfo[] infos(QueuePair qp, CmId id) {
        QpAttr a = qp.query();
        ConnInfo local = new ConnInfo(0, qp.qpNum(), a.sqPsn(), Gid.of(id.localAddress().getAddress()));
        ConnInfo remote = new ConnInfo(0, a.destQpNum(), a.rqPsn(), Gid.of(id.peerAddress().getAddress()));
        return new ConnInfo[] {local, remote};
    }

    /** rdma_disconnect on both sides (DREQ, DREP), each side's DISCONNECTED acked, then every id destroyed; once. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            CmId c = clientId;
            CmId s = serverId;
            if (c != null && s != null) {
                c.disconnect();
                serverEvents.getEvent(CmEventType.DISCONNECTED, timeout).ack();
                s.disconnect();
                clientEvents.getEvent(CmEventType.DISCONNECTED, timeout).ack();
            }
        } finally {
            for (AutoCloseable a : new AutoCloseable[] {clientId, serverId, listener, clientEvents, serverEvents}) {
                if (a != null) {
                    try {
                        a.close();
                    } catch (Exception ex) {
                        // the demo's result stands; a slow teardown is not its failure
                    }
                }
            }
        }
    }
}
