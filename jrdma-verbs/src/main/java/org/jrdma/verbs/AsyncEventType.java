package org.jrdma.verbs;

/** {@code enum ibv_event_type}: what an asynchronous event reports. */
public enum AsyncEventType {
    /** The CQ is in error (overrun); {@link AsyncEvent#cq()} names it. */
    CQ_ERR(0),
    /** An error not reported by a completion moved the QP to ERR. */
    QP_FATAL(1),
    /** An invalid request local work queue error moved the QP to ERR. */
    QP_REQ_ERR(2),
    /** A local access violation moved the QP to ERR. */
    QP_ACCESS_ERR(3),
    /** Communication was established: the first packet arrived on a QP in RTR. */
    COMM_EST(4),
    /** The send queue of a QP in SQD has drained (when en_sqd_async_notify asked for it). */
    SQ_DRAINED(5),
    /** A connection migrated to its alternate path. */
    PATH_MIG(6),
    /** A connection failed to migrate to its alternate path. */
    PATH_MIG_ERR(7),
    /** The device is in a fatal state; every resource of the context is unusable. */
    DEVICE_FATAL(8),
    /** The link of a port became active; {@link AsyncEvent#portNum()} names it. */
    PORT_ACTIVE(9),
    /** The link of a port became unavailable. */
    PORT_ERR(10),
    /** A port's LID changed. */
    LID_CHANGE(11),
    /** A port's P_Key table changed. */
    PKEY_CHANGE(12),
    /** A port's subnet manager changed. */
    SM_CHANGE(13),
    /** An error occurred on the SRQ; {@link AsyncEvent#srq()} names it. */
    SRQ_ERR(14),
    /** Fewer WRs than the armed limit remain posted on the SRQ; the limit disarms. */
    SRQ_LIMIT_REACHED(15),
    /** A QP of an SRQ in ERR has consumed its last WQE. */
    QP_LAST_WQE_REACHED(16),
    /** The subnet manager asked the port's clients to re-register. */
    CLIENT_REREGISTER(17),
    /** A port's GID table changed. */
    GID_CHANGE(18),
    /** An error moved a work queue (WQ) to its error state. */
    WQ_FATAL(19);

    private final int value;

    AsyncEventType(int value) {
        this.value = value;
    }

    /** {@return the {@code IBV_EVENT_*} value} */
    public int value() {
        return value;
    }

    /** {@return the ibverbs name, e.g. {@code IBV_EVENT_QP_FATAL}} */
    public String ibvName() {
        return "IBV_EVENT_" + name();
    }
}
