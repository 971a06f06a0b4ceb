package org.jrdma.verbs;

/** {@code enum ibv_event_type}: what an asynchronous event reports. */
public enum AsyncEventType {
    CQ_ERR(0), QP_FATAL(1), QP_REQ_ERR(2), QP_ACCESS_ERR(3), COMM_EST(4), SQ_DRAINED(5), PATH_MIG(6),
    PATH_MIG_ERR(7), DEVICE_FATAL(8), PORT_ACTIVE(9), PORT_ERR(10), LID_CHANGE(11), PKEY_CHANGE(12),
    SM_CHANGE(13), SRQ_ERR(14), SRQ_LIMIT_REACHED(15), QP_LAST_WQE_REACHED(16), CLIENT_REREGISTER(17),
    GID_CHANGE(18), WQ_FATAL(19);

    private final int value;

    AsyncEventType(int value) {
        this.value = value;
    }

    public int value() {
        return value;
    }

    /** The ibverbs name, e.g. {@code IBV_EVENT_QP_FATAL}. */
    public String ibvName() {
        return "IBV_EVENT_" + name();
    }
}
