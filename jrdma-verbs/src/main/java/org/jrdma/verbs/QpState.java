package org.jrdma.verbs;

/** {@code enum ibv_qp_state}: the states ibv_modify_qp moves a QP through. */
public enum QpState {
    /** {@code IBV_QPS_RESET}: as created; its queues are empty and nothing may be posted. */
    RESET(0),
    /** {@code IBV_QPS_INIT}: receives may be posted; nothing is sent or received yet. */
    INIT(1),
    /** {@code IBV_QPS_RTR}: ready to receive: the responder processes incoming requests. */
    RTR(2),
    /** {@code IBV_QPS_RTS}: ready to send: both queues work. */
    RTS(3),
    /** {@code IBV_QPS_SQD}: send queue drained: new sends wait until the QP returns to RTS. */
    SQD(4),
    /** {@code IBV_QPS_SQE}: send queue error (UC, UD): a send failed; receives still work. */
    SQE(5),
    /** {@code IBV_QPS_ERR}: every outstanding and newly posted WR completes with WR_FLUSH_ERR. */
    ERR(6),
    /** {@code IBV_QPS_UNKNOWN}: not a state a QP can be moved to or from. */
    UNKNOWN(7);

    private final int value;

    QpState(int value) {
        this.value = value;
    }

    /** {@return the {@code IBV_QPS_*} value} */
    public int value() {
        return value;
    }

    /**
     * May receives be posted in this state (rdmavt's ib_rvt_state_ops)?
     *
     * @return true in every state but RESET and UNKNOWN
     */
    public boolean canPostRecv() {
        return this != RESET && this != UNKNOWN;
    }

    /**
     * May sends be posted in this state (posting in ERR flushes)?
     *
     * @return true in RTS, SQD, SQE and ERR
     */
    public boolean canPostSend() {
        return this == RTS || this == SQD || this == SQE || this == ERR;
    }

    /**
     * Does the responder process incoming requests in this state?
     *
     * @return true in RTR, RTS, SQD and SQE
     */
    public boolean receives() {
        return this == RTR || this == RTS || this == SQD || this == SQE;
    }
}
