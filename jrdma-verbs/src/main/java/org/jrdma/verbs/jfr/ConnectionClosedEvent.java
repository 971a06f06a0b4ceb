package org.jrdma.verbs.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** A connection was closed (a bootstrap's connection closed, or a CM disconnect). */
@Name("org.jrdma.ConnectionClosed")
@Label("Connection Closed")
@Category({"jrdma", "Connection"})
@Description("A connection made by a bootstrap or the CM was closed or disconnected")
@StackTrace(false)
public final class ConnectionClosedEvent extends Event {
    /** An empty event; its fields are filled before {@code commit()}. */
    public ConnectionClosedEvent() {
    }

    /** How the connection was made: {@code tcp}, {@code file} or {@code static} (a bootstrap), or {@code cm}. */
    @Label("Method")
    @Description("tcp, file, static or cm")
    public String method;

    /** The peer: its GID (bootstrap) or its {@code address:port} (CM); null when unknown. */
    @Label("Peer")
    public String peer;

    /** This side's QP number (0 when the CM ID has no QP). */
    @Label("Local QPN")
    public int localQpn;

    /** The peer's QP number. */
    @Label("Remote QPN")
    public int remoteQpn;

    /** How long the connection was up, in nanoseconds (0 when its start is unknown). */
    @Label("Connected For")
    @Timespan(Timespan.NANOSECONDS)
    public long connectedNanos;

    /**
     * Commits one if recording is on.
     *
     * @param method    {@code tcp}, {@code file}, {@code static} or {@code cm}
     * @param peer      the peer's GID or {@code address:port}, or null
     * @param localQpn  this side's QP number
     * @param remoteQpn the peer's QP number
     * @param since     the {@link System#nanoTime()} at which it was established, or 0 if unknown
     */
    public static void emit(String method, String peer, int localQpn, int remoteQpn, long since) {
        ConnectionClosedEvent e = new ConnectionClosedEvent();
        if (e.shouldCommit()) {
            e.method = method;
            e.peer = peer;
            e.localQpn = localQpn;
            e.remoteQpn = remoteQpn;
            e.connectedNanos = since == 0 ? 0 : System.nanoTime() - since;
            e.commit();
        }
    }
}
