package org.jrdma.verbs.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A connection was set up. Its setup time is a field, not the event's duration, because the
 * CM learns of the end (the RTU, on its own thread) far from where the setup began.
 */
@Name("org.jrdma.ConnectionEstablished")
@Label("Connection Established")
@Category({"jrdma", "Connection"})
@Description("A connection was set up by a bootstrap (tcp, file, static) or the CM")
@StackTrace(false)
public final class ConnectionEstablishedEvent extends Event {
    /** An empty event; its fields are filled before {@code commit()}. */
    public ConnectionEstablishedEvent() {
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

    /** How long the setup took, in nanoseconds. */
    @Label("Setup Time")
    @Description("From the start of the exchange (bootstrap) or rdma_connect / the REQ (CM) to established")
    @Timespan(Timespan.NANOSECONDS)
    public long setupNanos;

    /**
     * Commits one if recording is on.
     *
     * @param method    {@code tcp}, {@code file}, {@code static} or {@code cm}
     * @param peer      the peer's GID or {@code address:port}, or null
     * @param localQpn  this side's QP number
     * @param remoteQpn the peer's QP number
     * @param since     the {@link System#nanoTime()} at which the setup began
     */
    public static void emit(String method, String peer, int localQpn, int remoteQpn, long since) {
        ConnectionEstablishedEvent e = new ConnectionEstablishedEvent();
        if (e.shouldCommit()) {
            e.method = method;
            e.peer = peer;
            e.localQpn = localQpn;
            e.remoteQpn = remoteQpn;
            e.setupNanos = System.nanoTime() - since;
            e.commit();
        }
    }
}
