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
    @Label("Method")
    @Description("tcp, file, static or cm")
    public String method;

    @Label("Peer")
    public String peer;

    @Label("Local QPN")
    public int localQpn;

    @Label("Remote QPN")
    public int remoteQpn;

    @Label("Connected For")
    @Timespan(Timespan.NANOSECONDS)
    public long connectedNanos;

    /** Commits one if recording is on; {@code since} the System.nanoTime() at which it was established. */
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
