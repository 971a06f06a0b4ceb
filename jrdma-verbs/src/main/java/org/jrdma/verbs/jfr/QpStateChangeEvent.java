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
    /** An empty event; its fields are filled before {@code commit()}. */
    public QpStateChangeEvent() {
    }

    /** The device name (as {@code ibv_get_device_name}). */
    @Label("Device")
    public String device;

    /** The QP number. */
    @Label("QPN")
    public int qpn;

    /** The state before: RESET, INIT, RTR, RTS, SQD, SQE or ERR ({@code ibv_qp_state}). */
    @Label("From")
    public String from;

    /** The state after, named as {@link #from} is. */
    @Label("To")
    public String to;

    /** Why the transport moved the QP to ERR; null for a change modify_qp asked for. */
    @Label("Cause")
    @Description("Why the transport moved the QP (null when modify_qp asked for the state)")
    public String cause;

    /**
     * Commits one if recording is on.
     *
     * @param device the device name
     * @param qpn    the QP number
     * @param from   the state before (its {@code toString()} is recorded)
     * @param to     the state after (its {@code toString()} is recorded)
     * @param cause  why the transport moved the QP, or null for a change modify_qp asked for
     */
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
