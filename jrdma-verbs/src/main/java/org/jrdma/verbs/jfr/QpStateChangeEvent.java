package org.jrdma.verbs.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A QP changed state: by modify_qp (no cause), or moved to ERR by the transport (the cause says why). */
@Name("org.jrdma.QpStateChange")
@Label("QP State Change")
@Category({"jrdma", "Queue Pair"})
@Description("A queue pair changed state (ibv_modify_qp, or the transport moving it to ERR)")
@StackTrace(false)
public final class QpStateChangeEvent extends Event {
    @Label("Device")
    public String device;

    @Label("QPN")
    public int qpn;

    @Label("From")
    public String from;

    @Label("To")
    public String to;

    @Label("Cause")
    @Description("Why the transport moved the QP (null when modify_qp asked for the state)")
    public String cause;

    /** Commits one if recording is on; {@code cause} null for a requested change. */
    public static void emit(String device, int qpn, Object from, Object to, String cause) {
        QpStateChangeEvent e = new QpStateChangeEvent();
        if (e.shouldCommit()) {
            e.device = device;
            e.qpn = qpn;
            e.from = String.valueOf(from);
            e.to = String.valueOf(to);
            e.cause = cause;
            e.commit();
        }
    }
}
