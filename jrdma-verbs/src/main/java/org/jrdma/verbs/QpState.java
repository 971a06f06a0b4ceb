package org.jrdma.verbs;

/** {@code enum ibv_qp_state}. */
public enum QpState {
    RESET(0), INIT(1), RTR(2), RTS(3), SQD(4), SQE(5), ERR(6), UNKNOWN(7);

    private final int value;

    QpState(int value) {
        this.value = value;
    }

    public int value() {
        return value;
    }

    /** May receives be posted in this state (rdmavt's ib_rvt_state_ops)? */
    public boolean canPostRecv() {
        return this != RESET && this != UNKNOWN;
    }

    /** May sends be posted in this state (posting in ERR flushes)? */
    public boolean canPostSend() {
        return this == RTS || this == SQD || this == SQE || this == ERR;
    }

    /** Does the responder process incoming requests in this state? */
    public boolean receives() {
        return this == RTR || this == RTS || this == SQD || this == SQE;
    }
}
