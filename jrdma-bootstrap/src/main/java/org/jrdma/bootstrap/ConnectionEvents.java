package org.jrdma.bootstrap;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;
import org.jrdma.bootstrap.file.FileExchange;
import org.jrdma.bootstrap.fixed.StaticExchange;
import org.jrdma.bootstrap.tcp.TcpClientExchange;
import org.jrdma.bootstrap.tcp.TcpServerExchange;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.jfr.ConnectionClosedEvent;
import org.jrdma.verbs.jfr.ConnectionEstablishedEvent;

/**
 * The Flight Recorder's view of {@link RcConnector}: a ConnectionEstablished event when a
 * connection is up, a ConnectionClosed when its {@link RcConnection} closes. What close needs
 * (method, peer, when) is kept per QP, weakly, since an RcConnection is a record.
 */
final class ConnectionEvents {
    private record Opened(String method, String peer, long since) {
    }

    private static final Map<QueuePair, Opened> OPEN = Collections.synchronizedMap(new WeakHashMap<>());

    private ConnectionEvents() {
    }

    /** The bootstrap's name in the events: tcp, file, static, or the exchange's class for another. */
    static String method(Exchange exchange) {
        if (exchange instanceof TcpClientExchange || exchange instanceof TcpServerExchange) {
            return "tcp";
        }
        if (exchange instanceof FileExchange) {
            return "file";
        }
        if (exchange instanceof StaticExchange) {
            return "static";
        }
        return exchange.getClass().getSimpleName().toLowerCase(Locale.ROOT);
    }

    static void established(String method, RcConnection c, long startNanos) {
        String peer = String.valueOf(c.remote().gid());
        OPEN.put(c.qp(), new Opened(method, peer, System.nanoTime()));
        ConnectionEstablishedEvent.emit(method, peer, c.local().qpn(), c.remote().qpn(), startNanos);
    }

    static void closed(RcConnection c) {
        Opened o = OPEN.remove(c.qp());
        if (o != null) {
            ConnectionClosedEvent.emit(o.method(), o.peer(), c.local().qpn(), c.remote().qpn(), o.since());
        }
    }
}
