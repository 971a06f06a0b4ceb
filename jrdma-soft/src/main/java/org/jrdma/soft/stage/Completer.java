package org.jrdma.soft.stage;

import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.Psn;
import org.jrdma.soft.wire.RxPacket;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.WcStatus;

/**
 * The acknowledgement path (rxe_comp.c): ACKs complete send WQEs, NAKs and the local ACK
 * timer rewind the requester (go-back-N from the first unacknowledged PSN), RNR NAKs pause it
 * for the responder's timer, and exhausted retry counters end in an error completion with the
 * QP in ERR and everything else flushed — never a silent hang.
 */
public final class Completer {

    /** Handles an ACKNOWLEDGE packet for {@code qp}. */
    public void onAck(TransportQp qp, RxPacket pkt, long now) {
        if (!(qp.state == QpState.RTS || qp.state == QpState.SQD)) {
            qp.count(QpCounter.COMPLETER_DROPS);
            return;
        }
        int psn = pkt.bth().psn();
        // A response can only be for a PSN we have sent: [compPsn - 2^23, reqPsn). Anything at
        // or beyond reqPsn is forged or corrupt (SEC-15: no completion for PSNs never sent).
        if (Psn.compare(psn, qp.reqPsn) >= 0) {
            qp.count(QpCounter.COMPLETER_DROPS);
            return;
        }
        int syndrome = pkt.aeth().syndrome();
        qp.count(QpCounter.ACKS_RCVD);
        if (Aeth.isAck(syndrome)) {
            ackThrough(qp, psn, now);
        } else if (Aeth.isRnrNak(syndrome)) {
            onRnrNak(qp, psn, Aeth.rnrTimer(syndrome), now);
        } else if (Aeth.isNak(syndrome)) {
            onNak(qp, psn, syndrome, now);
        } else {
            qp.count(QpCounter.COMPLETER_DROPS);
        }
    }

    /** Everything up to and including {@code psn} arrived: complete what it covers. */
    private void ackThrough(TransportQp qp, int psn, long now) {
        if (Psn.compare(psn, qp.compPsn) < 0) {
            return; // stale or duplicated ACK: nothing new
        }
        completeBefore(qp, Psn.next(psn));
        qp.compPsn = Psn.next(psn);
        progress(qp, now);
    }

    /** Completes, in order, every PENDING WQE whose last PSN is before {@code psn}. */
    private void completeBefore(TransportQp qp, int psn) {
        while (qp.sqHead < qp.sqNext) {
            SendWqe w = qp.sq[TransportQp.slot(qp.sqHead, qp.sq.length)];
            if (w.state != SendWqe.State.PENDING || Psn.compare(w.lastPsn, psn) >= 0) {
                break;
            }
            qp.completeSend(w, WcStatus.SUCCESS);
        }
    }

    /** A valid response: the retry counters start again and the timer restarts or stops. */
    private void progress(TransportQp qp, long now) {
        qp.retryLeft = qp.retryCnt;
        qp.rnrRetryLeft = qp.rnrRetry;
        qp.retransmitDeadline = qp.compPsn == qp.reqPsn || qp.ackTimeoutNanos() == 0 ? 0 : now + qp.ackTimeoutNanos();
    }

    private void onNak(TransportQp qp, int psn, int syndrome, long now) {
        if (syndrome == Aeth.NAK_PSN_SEQUENCE_ERROR) {
            qp.count(QpCounter.SEQ_NAKS_RCVD);
            // The responder expects psn: everything before it arrived (implicit ACK).
            if (Psn.compare(psn, qp.compPsn) < 0) {
                return; // an old NAK, already recovered from
            }
            completeBefore(qp, psn);
            qp.compPsn = psn;
            retry(qp, now, false);
            return;
        }
        completeBefore(qp, psn);
        WcStatus status = switch (syndrome) {
            case Aeth.NAK_INVALID_REQUEST -> WcStatus.REM_INV_REQ_ERR;
            case Aeth.NAK_REMOTE_ACCESS_ERROR -> WcStatus.REM_ACCESS_ERR;
            default -> WcStatus.REM_OP_ERR; // 0x63 remote operational error, and reserved codes
        };
        failHead(qp, status);
    }

    private void onRnrNak(TransportQp qp, int psn, int timerCode, long now) {
        qp.count(QpCounter.RNR_NAKS_RCVD);
        if (Psn.compare(psn, qp.compPsn) < 0) {
            return;
        }
        completeBefore(qp, psn);
        qp.compPsn = psn;
        if (qp.rnrRetryLeft == 0) {
            qp.count(QpCounter.RNR_RETRY_EXCEEDED);
            failHead(qp, WcStatus.RNR_RETRY_EXC_ERR);
            return;
        }
        if (qp.rnrRetry != 7) { // 7 means retry forever (IBA)
            qp.rnrRetryLeft--;
        }
        // Resend no earlier than the responder asked (REL-15b, the rxe "rnr retry" fix): the
        // requester is held until rnrDeadline, then goes back to compPsn.
        qp.retransmitDeadline = 0;
        qp.rnrDeadline = now + RnrTimer.nanos(timerCode);
        rewind(qp);
    }

    /** The local ACK timer or RNR back-off; called by the engine on every pass. */
    public int onTimers(TransportQp qp, long now) {
        if (qp.rnrDeadline != 0 && now - qp.rnrDeadline >= 0) {
            qp.rnrDeadline = 0;
            return 1; // the requester resumes from compPsn (already rewound)
        }
        if (qp.retransmitDeadline != 0 && now - qp.retransmitDeadline >= 0) {
            qp.retransmitDeadline = 0;
            if (qp.compPsn == qp.reqPsn) {
                return 0; // nothing outstanding any more
            }
            qp.count(QpCounter.RETRY_TIMEOUTS);
            retry(qp, now, true);
            return 1;
        }
        return 0;
    }

    /**
     * Go-back-N after a timeout or a sequence NAK: retry_cnt counts both (IBA). We follow the
     * spec where rxe does not: retry_cnt 7 means 7 retries, not infinite (only rnr_retry 7 is
     * infinite), so a dead peer always ends in RETRY_EXC_ERR.
     */
    private void retry(TransportQp qp, long now, boolean timeout) {
        if (qp.retryLeft == 0) {
            qp.count(QpCounter.RETRY_EXCEEDED);
            failHead(qp, WcStatus.RETRY_EXC_ERR);
            return;
        }
        qp.retryLeft--;
        rewind(qp);
        if (qp.ackTimeoutNanos() != 0) {
            qp.retransmitDeadline = now + qp.ackTimeoutNanos();
        }
    }

    /**
     * Rewinds the requester to compPsn (rxe req_retry): the WQE holding compPsn resends from
     * that packet, later ones from their start, with the same PSNs as before.
     */
    static void rewind(TransportQp qp) {
        qp.reqPsn = qp.compPsn;
        qp.packetsSinceAckReq = 0;
        qp.sqNext = qp.sqHead;
        for (long i = qp.sqHead; i < qp.sqTail; i++) {
            SendWqe w = qp.sq[TransportQp.slot(i, qp.sq.length)];
            if (w.state == SendWqe.State.POSTED) {
                break;
            }
            if (i == qp.sqHead) {
                w.sentPackets = Math.max(0, Math.min(w.packets, Psn.diff(qp.compPsn, w.firstPsn)));
                w.state = SendWqe.State.SENDING;
            } else {
                w.sentPackets = 0;
                w.state = SendWqe.State.SENDING;
            }
        }
        // Later WQEs keep their PSN ranges: resending in order from compPsn gives them the
        // same PSNs again, so startWqe is not run for them a second time.
    }

    /** Completes the oldest WQE with an error and moves the QP to ERR (the rest flush). */
    private void failHead(TransportQp qp, WcStatus status) {
        if (qp.sqHead < qp.sqTail) {
            qp.completeSend(qp.sq[TransportQp.slot(qp.sqHead, qp.sq.length)], status);
        }
        qp.fail();
    }
}
