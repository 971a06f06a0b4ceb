package org.jrdma.soft.transport;

/**
 * What the responder's checks decided for one request (rxe_resp.c's states: EXECUTE, the
 * duplicate handling, and its RESPST_ERR_* error states). A check returns one of these; what
 * each means on the wire, in the CQ, as an event and for the QP's state is one row per
 * transport in {@link ErrorTable}, applied in one place ({@link ResponderErrors}).
 */
public enum ResponderOutcome {
    /** Every check passed: execute the request. */
    EXECUTE,
    /** PSN ahead of ePSN: packets were lost (class B; rxe RESPST_ERR_PSN_OUT_OF_SEQ). UC: any PSN but ePSN. */
    PSN_OUT_OF_SEQUENCE,
    /** A SEND or WRITE behind ePSN, already executed (C9-105; rxe RESPST_DUPLICATE_REQUEST). */
    DUPLICATE,
    /** A READ request behind ePSN: answered again from the responder resources (rxe duplicate_request). */
    DUPLICATE_READ,
    /** An atomic behind ePSN: answered with the saved original value, never executed again. */
    DUPLICATE_ATOMIC,
    /** A MIDDLE or LAST with no message in progress (rxe RESPST_ERR_MISSING_OPCODE_FIRST). */
    MISSING_FIRST,
    /**
     * Inside a message, a packet that does not continue it — a new FIRST/ONLY or another
     * operation (rxe RESPST_ERR_MISSING_OPCODE_LAST_C).
     */
    MISSING_LAST,
    /**
     * The QP's own access flags do not allow the operation (remote WRITE, READ or atomic), as
     * rxe's check_op_valid answers it (RESPST_ERR_UNSUPPORTED_OPCODE).
     */
    UNSUPPORTED_OPCODE,
    /** A READ or atomic to a QP with max_dest_rd_atomic 0 (rxe RESPST_ERR_TOO_MANY_RDMA_ATM_REQ). */
    TOO_MANY_RDMA_ATOMIC,
    /** No receive posted for a SEND or a WRITE with immediate (class B; rxe RESPST_ERR_RNR). */
    RNR,
    /**
     * The receive's buffer is outside registered memory, or went away during the message
     * (rxe RESPST_ERR_MALFORMED_WQE).
     */
    MALFORMED_WQE,
    /**
     * A packet's payload length breaks the MTU rules, a WRITE's packets do not add up to its
     * RETH length, or a DMA length is over 2^31 (rxe RESPST_ERR_LENGTH).
     */
    LENGTH,
    /** A SEND longer than the receive buffer it lands in (rxe: RESPST_ERR_LENGTH after the copy fails). */
    RECV_TOO_SHORT,
    /** An atomic's address is not 8-byte aligned (rxe RESPST_ERR_MISALIGNED_ATOMIC). */
    MISALIGNED_ATOMIC,
    /**
     * The rkey does not give this access to this range in this PD, or the region went away
     * during a WRITE (rxe RESPST_ERR_RKEY_VIOLATION).
     */
    RKEY_VIOLATION,
    /** The region of a READ reply in progress went away (rxe read_reply's rxe_recheck_mr failing). */
    REPLY_RKEY_VIOLATION,
    /** SEND_WITH_INV names a window it may not invalidate (IBA class J; rxe RESPST_ERR_INVALIDATE_RKEY). */
    INVALIDATE_RKEY,
    /** UD and GSI: the datagram's Q_Key is not the QP's (rxe check_keys). */
    QKEY_VIOLATION
}
