package org.jrdma.verbs;

/** {@code enum ibv_wc_status} with the strings of {@code ibv_wc_status_str}. */
public enum WcStatus {
    /** {@code IBV_WC_SUCCESS}: the work request completed successfully. */
    SUCCESS(0, "success"),
    /** {@code IBV_WC_LOC_LEN_ERR}: a message longer than the receive buffer, or than the device or port allows. */
    LOC_LEN_ERR(1, "local length error"),
    /**
     * {@code IBV_WC_LOC_QP_OP_ERR}: the WR is invalid for the QP: an opcode its transport lacks, or an AH of
     * another PD.
     */
    LOC_QP_OP_ERR(2, "local QP operation error"),
    /** {@code IBV_WC_LOC_EEC_OP_ERR}: an EE context consistency error (RD only). */
    LOC_EEC_OP_ERR(3, "local EE context operation error"),
    /** {@code IBV_WC_LOC_PROT_ERR}: a local buffer is outside its MR, of another PD, or lacks the access needed. */
    LOC_PROT_ERR(4, "local protection error"),
    /** {@code IBV_WC_WR_FLUSH_ERR}: the QP went to ERR with the WR outstanding (or it was posted in ERR). */
    WR_FLUSH_ERR(5, "Work Request Flushed Error"),
    /** {@code IBV_WC_MW_BIND_ERR}: a memory-window bind or invalidate failed. */
    MW_BIND_ERR(6, "memory management operation error"),
    /** {@code IBV_WC_BAD_RESP_ERR}: the responder answered with an unexpected transport opcode (RC). */
    BAD_RESP_ERR(7, "bad response error"),
    /** {@code IBV_WC_LOC_ACCESS_ERR}: a protection error on a local buffer while writing a READ or atomic response. */
    LOC_ACCESS_ERR(8, "local access error"),
    /**
     * {@code IBV_WC_REM_INV_REQ_ERR}: the responder found the request invalid: an opcode the QP does not
     * allow, or a bad length.
     */
    REM_INV_REQ_ERR(9, "remote invalid request error"),
    /**
     * {@code IBV_WC_REM_ACCESS_ERR}: the responder refused the rkey, address range or access (RDMA, atomics,
     * SEND_WITH_INV).
     */
    REM_ACCESS_ERR(10, "remote access error"),
    /**
     * {@code IBV_WC_REM_OP_ERR}: the responder could not complete the operation, e.g. its receive buffer was
     * too small.
     */
    REM_OP_ERR(11, "remote operation error"),
    /**
     * {@code IBV_WC_RETRY_EXC_ERR}: no ACK after retry_cnt retransmissions: the peer is gone or the path
     * drops everything (RC).
     */
    RETRY_EXC_ERR(12, "transport retry counter exceeded"),
    /**
     * {@code IBV_WC_RNR_RETRY_EXC_ERR}: the responder kept answering RNR NAK (no receive posted) past
     * rnr_retry (RC).
     */
    RNR_RETRY_EXC_ERR(13, "RNR retry counter exceeded"),
    /** {@code IBV_WC_LOC_RDD_VIOL_ERR}: a local RDD violation (RD only). */
    LOC_RDD_VIOL_ERR(14, "local RDD violation error"),
    /** {@code IBV_WC_REM_INV_RD_REQ_ERR}: an invalid RD request at the responder (RD only). */
    REM_INV_RD_REQ_ERR(15, "remote invalid RD request"),
    /** {@code IBV_WC_REM_ABORT_ERR}: the responder aborted the operation. */
    REM_ABORT_ERR(16, "aborted error"),
    /** {@code IBV_WC_INV_EECN_ERR}: an invalid EE context number (RD only). */
    INV_EECN_ERR(17, "invalid EE context number"),
    /** {@code IBV_WC_INV_EEC_STATE_ERR}: an invalid EE context state (RD only). */
    INV_EEC_STATE_ERR(18, "invalid EE context state"),
    /** {@code IBV_WC_FATAL_ERR}: a fatal error of the device or transport. */
    FATAL_ERR(19, "fatal error"),
    /** {@code IBV_WC_RESP_TIMEOUT_ERR}: the response did not arrive in time. */
    RESP_TIMEOUT_ERR(20, "response timeout error"),
    /** {@code IBV_WC_GENERAL_ERR}: an error of no other kind. */
    GENERAL_ERR(21, "general error"),
    /** {@code IBV_WC_TM_ERR}: a tag-matching error (tag-matching SRQs). */
    TM_ERR(22, "TM error"),
    /** {@code IBV_WC_TM_RNDV_INCOMPLETE}: a tag-matching rendezvous that software must complete. */
    TM_RNDV_INCOMPLETE(23, "TM software rendezvous");

    private static final WcStatus[] BY_VALUE = values();

    private final int value;
    private final String text;

    WcStatus(int value, String text) {
        this.value = value;
        this.text = text;
    }

    /** {@return the {@code IBV_WC_*} status value} */
    public int value() {
        return value;
    }

    /** {@return the text {@code ibv_wc_status_str} returns, e.g. {@code transport retry counter exceeded}} */
    public String str() {
        return text;
    }

    /** {@return the ibverbs name, e.g. {@code IBV_WC_RETRY_EXC_ERR}} */
    public String ibvName() {
        return "IBV_WC_" + name();
    }

    /**
     * The status of an {@code ibv_wc_status} value.
     *
     * @param value 0 to 23
     * @return that status
     * @throws IllegalArgumentException for any other value
     */
    public static WcStatus fromValue(int value) {
        if (value < 0 || value >= BY_VALUE.length) {
            throw new IllegalArgumentException("no ibv_wc_status " + value);
        }
        return BY_VALUE[value];
    }
}
