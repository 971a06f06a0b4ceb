package org.jrdma.soft.transport;

import org.jrdma.soft.wire.Aeth;
import org.jrdma.verbs.WcStatus;

/**
 * What the completer's checks decided for one response, or for its timers (rxe_comp.c's
 * COMPST_* states: the ACK kinds it reads, the retries it starts, the errors it ends in). This
 * enum is the completer's table: an outcome that ends the QP names the status the oldest WQE
 * completes with (then the QP goes to ERR and the rest flush, IBA 10.7.3.1) and the counter
 * that counts it; the others are handled by the completer's step for them.
 */
public enum CompleterOutcome {
    /** The QP is not in RTS or SQD: responses are dropped (rxe_recv's state check). */
    NOT_READY(null, QpCounter.COMPLETER_DROPS),
    /** A response for a PSN never sent: forged or corrupt (also counted as UNSENT_PSN_RESPONSES). */
    UNSENT_PSN(null, QpCounter.COMPLETER_DROPS),
    /** An AETH of the reserved type: dropped. */
    RESERVED_SYNDROME(null, QpCounter.COMPLETER_DROPS),
    /** An ACK: completes what it covers (rxe COMPST_CHECK_ACK → COMPST_WRITE_SEND). */
    ACK(null, null),
    /** A READ response (rxe COMPST_READ). */
    READ_RESPONSE(null, null),
    /** An ATOMIC ACKNOWLEDGE (rxe COMPST_ATOMIC). */
    ATOMIC_ACK(null, null),
    /** NAK PSN sequence error: an implicit ACK before its PSN and go-back-N from it (rxe ERROR_RETRY). */
    PSN_SEQUENCE_NAK(null, QpCounter.SEQ_NAKS_RCVD),
    /** RNR NAK: wait for the responder's timer, then go back (rxe COMPST_RNR_RETRY). */
    RNR_NAK(null, QpCounter.RNR_NAKS_RCVD),
    /** NAK invalid request (0x61). */
    NAK_INVALID_REQUEST(WcStatus.REM_INV_REQ_ERR, null),
    /** NAK remote access error (0x62). */
    NAK_REMOTE_ACCESS_ERROR(WcStatus.REM_ACCESS_ERR, null),
    /** NAK remote operational error (0x63), and every other NAK code (rxe: unknown NAKs are REM_OP_ERR). */
    NAK_REMOTE_OPERATIONAL_ERROR(WcStatus.REM_OP_ERR, null),
    /** retry_cnt retries without progress (timeouts, sequence NAKs, lost responses). */
    RETRY_EXCEEDED(WcStatus.RETRY_EXC_ERR, QpCounter.RETRY_EXCEEDED),
    /** rnr_retry RNR NAKs without progress (rnr_retry 7 never ends here). */
    RNR_RETRY_EXCEEDED(WcStatus.RNR_RETRY_EXC_ERR, QpCounter.RNR_RETRY_EXCEEDED),
    /** The responder broke the protocol: a READ response of the wrong length or position. */
    BAD_RESPONSE(WcStatus.BAD_RESP_ERR, null),
    /** The WR's local buffer went away (deregistered, its Arena closed) before the response landed. */
    LOCAL_MEMORY_GONE(WcStatus.LOC_PROT_ERR, null);

    /** The oldest WQE's completion status when this outcome ends the QP, else null. */
    public final WcStatus status;
    /** The counter that counts this outcome, or null. */
    public final QpCounter counter;

    CompleterOutcome(WcStatus status, QpCounter counter) {
        this.status = status;
        this.counter = counter;
    }

    /** Whether this outcome completes the oldest WQE with an error and moves the QP to ERR. */
    public boolean endsQp() {
        return status != null;
    }

    /** The outcome an ACKNOWLEDGE's AETH syndrome names (IBA 9.7.5.1.2; rxe COMPST_CHECK_ACK). */
    static CompleterOutcome ofSyndrome(int syndrome) {
        if (Aeth.isAck(syndrome)) {
            return ACK;
        }
        if (Aeth.isRnrNak(syndrome)) {
            return RNR_NAK;
        }
        if (!Aeth.isNak(syndrome)) {
            return RESERVED_SYNDROME;
        }
        return switch (syndrome) {
            case Aeth.NAK_PSN_SEQUENCE_ERROR -> PSN_SEQUENCE_NAK;
            case Aeth.NAK_INVALID_REQUEST -> NAK_INVALID_REQUEST;
            case Aeth.NAK_REMOTE_ACCESS_ERROR -> NAK_REMOTE_ACCESS_ERROR;
            default -> NAK_REMOTE_OPERATIONAL_ERROR;
        };
    }
}
