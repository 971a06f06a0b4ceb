package org.jrdma.soft.transport;

import java.lang.foreign.MemorySegment;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.Operation;
import org.jrdma.soft.wire.Psn;
import org.jrdma.soft.wire.RxPacket;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.WcStatus;

/**
 * The acknowledgement path (rxe_comp.c): ACKs complete SENDs and WRITEs, READ responses and
 * atomic ACKs complete READs and atomics, NAKs and the local ACK timer ask the requester to
 * rewind (go-back-N from the first unacknowledged PSN; it does so itself, as rxe's need_retry),
 * RNR NAKs pause it for the responder's timer,
 * and exhausted retry counters end in an error completion with the QP in ERR and everything
 * else flushed — never a silent hang. A response is first checked into a
 * {@link CompleterOutcome} ({@link #check}); each outcome has its step, and every error end
 * goes through {@link #fail(TransportQp, CompleterOutcome)}, which reads status and counter
 * from the outcome.
 */
public final class Completer {
    /** Where an atomic's original value is staged (host byte order) before it is scattered. */
    private final long[] original = new long[1];
    private final MemorySegment originalBytes = MemorySegment.ofArray(original);
    private final StallWarnings stalls;

    public Completer(StallWarnings stalls) {
        this.stalls = stalls;
    }

    /** Handles a response packet (ACKNOWLEDGE, READ response, ATOMIC ACKNOWLEDGE) for {@code qp}. */
    public void onResponse(TransportQp qp, RxPacket pkt, MemorySegment data, long now) {
        CompleterOutcome outcome = check(qp, pkt);
        if (pkt.opcode().operation() == Operation.ACK && outcome != CompleterOutcome.NOT_READY
                && outcome != CompleterOutcome.UNSENT_PSN) {
            qp.count(QpCounter.ACKS_RCVD);
        }
        if (outcome.counter != null) {
            qp.count(outcome.counter);
        }
        int psn = pkt.bth().psn();
        switch (outcome) {
            case NOT_READY, RESERVED_SYNDROME -> { }
            case UNSENT_PSN -> qp.count(QpCounter.UNSENT_PSN_RESPONSES); // the injection alert (SEC-14)
            case READ_RESPONSE -> onReadResponse(qp, pkt, data, now);
            case ATOMIC_ACK -> onAtomicAck(qp, pkt, now);
            case ACK -> ackThrough(qp, psn, now);
            case RNR_NAK -> onRnrNak(qp, psn, Aeth.rnrTimer(pkt.aeth().syndrome()), now);
            case PSN_SEQUENCE_NAK -> onSequenceNak(qp, psn, now);
            default -> onErrorNak(qp, psn, outcome, now);
        }
    }

    /**
     * The checks before a response is used (rxe COMPST_CHECK_PSN, COMPST_CHECK_ACK): the QP
     * takes responses, the PSN was sent, and what kind of response it is.
     */
    static CompleterOutcome check(TransportQp qp, RxPacket pkt) {
        if (!(qp.state == QpState.RTS || qp.state == QpState.SQD)) {
            return CompleterOutcome.NOT_READY;
        }
        // A response can only be for a PSN we have sent: at or beyond the highest PSN ever sent
        // it is forged or corrupt (SEC-15: no completion for PSNs never sent). Not reqPsn: after
        // a go-back-N rewind, ACKs for packets sent before the rewind are still good news.
        if (Psn.compare(pkt.bth().psn(), qp.req.sentHighPsn) >= 0) {
            return CompleterOutcome.UNSENT_PSN;
        }
        return switch (pkt.opcode().operation()) {
            case READ_RESPONSE -> CompleterOutcome.READ_RESPONSE;
            case ATOMIC_ACK -> CompleterOutcome.ATOMIC_ACK;
            default -> CompleterOutcome.ofSyndrome(pkt.aeth().syndrome());
        };
    }

    /** Everything up to and including {@code psn} arrived: complete what it covers. */
    private void ackThrough(TransportQp qp, int psn, long now) {
        if (Psn.compare(psn, qp.comp.compPsn) < 0) {
            return; // stale or duplicated ACK: nothing new
        }
        if (!completeBefore(qp, Psn.next(psn), now)) {
            return; // a READ/atomic response was lost: completeBefore started the retry
        }
        qp.comp.compPsn = Psn.next(psn);
        catchUp(qp);
        progress(qp, now);
    }

    /**
     * After a rewind the requester may be resending packets an ACK has just covered: move it
     * forward to the first unacknowledged PSN rather than resend what the peer already has.
     */
    private static void catchUp(TransportQp qp) {
        if (Psn.compare(requesterPsn(qp), qp.comp.compPsn) < 0) {
            requestRetry(qp);
        }
    }

    /**
     * Completes, in order, the WQEs that end before {@code psn}: SENDs and WRITEs (an ACK of a
     * later PSN acknowledges them) and finished local work. A READ or atomic in that range
     * whose response has not come means the response was lost — the responder answers in order
     * — so the requester goes back to it (rxe: ERROR_RETRY); returns false then.
     */
    private boolean completeBefore(TransportQp qp, int psn, long now) {
        while (qp.sq.head < qp.sq.tail) {
            SendWqe w = qp.sq.at(qp.sq.head);
            if (w.state == SendWqe.State.DONE) {
                qp.completeSend(w, WcStatus.SUCCESS);
                continue;
            }
            // PENDING, or SENDING again after a rewind: an ACK past its last PSN still covers it.
            if (w.state == SendWqe.State.POSTED || Psn.compare(w.lastPsn, psn) >= 0) {
                return true;
            }
            if (w.needsResponse()) {
                qp.comp.compPsn = Psn.add(w.firstPsn, receivedPackets(qp, w));
                retry(qp, now);
                return false;
            }
            qp.completeSend(w, WcStatus.SUCCESS);
        }
        return true;
    }

    private static int receivedPackets(TransportQp qp, SendWqe w) {
        return w.isAtomic() ? 0 : (int) (w.received / qp.mtuBytes());
    }

    /** A valid response: the retry counters start again and the timer restarts or stops. */
    private void progress(TransportQp qp, long now) {
        StallWarnings.progressed(qp);
        qp.comp.retryStarted = false;
        qp.comp.retryLeft = qp.attr.retryCnt;
        qp.comp.rnrRetryLeft = qp.attr.rnrRetry;
        qp.retransmitDeadline = qp.comp.compPsn == requesterPsn(qp) || qp.ackTimeoutNanos() == 0 ? 0
                : now + qp.ackTimeoutNanos();
    }

    /**
     * A READ response: it must continue the READ at the head exactly where the received bytes
     * end (responses are contiguous); its bytes are scattered into the WR's local buffers; the
     * last one completes the READ. A gap means a lost response: go back once per gap, at once,
     * rather than waiting for the timer (the retried request asks only for the missing tail).
     */
    private void onReadResponse(TransportQp qp, RxPacket pkt, MemorySegment data, long now) {
        int psn = pkt.bth().psn();
        if (pkt.opcode().has(org.jrdma.soft.wire.ExtHeader.AETH) && !Aeth.isAck(pkt.aeth().syndrome())) {
            qp.count(QpCounter.COMPLETER_DROPS);
            return;
        }
        if (!completeBefore(qp, psn, now)) {
            return;
        }
        SendWqe w = headWqe(qp);
        if (w == null || !w.isRead() || w.state != SendWqe.State.PENDING
                || Psn.compare(psn, w.firstPsn) < 0 || Psn.compare(psn, w.lastPsn) > 0) {
            qp.count(QpCounter.COMPLETER_DROPS); // stale, duplicated, or not for a READ
            return;
        }
        int expected = Psn.add(w.firstPsn, receivedPackets(qp, w));
        if (psn != expected) {
            if (Psn.compare(psn, expected) > 0) {
                qp.comp.compPsn = expected;
                retry(qp, now); // once per gap: later stale responses start nothing new
            } else {
                qp.count(QpCounter.COMPLETER_DROPS);
            }
            return;
        }
        // The bytes go where the PSN says, whatever FIRST/MIDDLE/LAST the packet is marked: after
        // a retry, responses of the old and the replayed sequence may interleave (reordering),
        // and only the PSN places them. Lengths are checked: one MTU each, the rest on the last.
        boolean ends = psn == w.lastPsn;
        int len = pkt.payloadLength();
        long remaining = w.length() - w.received;
        boolean lengthOk = ends ? len == remaining : len == qp.mtuBytes() && len < remaining;
        if (!lengthOk || ends != pkt.opcode().position().isEnd()) {
            fail(qp, CompleterOutcome.BAD_RESPONSE);
            return;
        }
        if (len > 0 && !scatter(qp, w, data, pkt.payloadOffset(), len)) {
            return;
        }
        w.received += len;
        qp.comp.compPsn = Psn.next(psn);
        progress(qp, now);
        if (ends) {
            qp.comp.compPsn = Psn.next(w.lastPsn);
            qp.completeSend(w, WcStatus.SUCCESS);
            qp.completeDone();
            progress(qp, now);
        }
    }

    /** An ATOMIC ACKNOWLEDGE: the original value goes to the WR's 8-byte buffer, in host order. */
    private void onAtomicAck(TransportQp qp, RxPacket pkt, long now) {
        int psn = pkt.bth().psn();
        if (!Aeth.isAck(pkt.aeth().syndrome()) || !completeBefore(qp, psn, now)) {
            return;
        }
        SendWqe w = headWqe(qp);
        if (w == null || !w.isAtomic() || w.state != SendWqe.State.PENDING || w.firstPsn != psn) {
            qp.count(QpCounter.COMPLETER_DROPS);
            return;
        }
        original[0] = pkt.atomicAckEth().originalValue();
        if (!scatter(qp, w, originalBytes, 0, 8)) {
            return;
        }
        w.received = 8;
        qp.comp.compPsn = Psn.next(psn);
        qp.completeSend(w, WcStatus.SUCCESS);
        qp.completeDone();
        progress(qp, now);
    }

    /**
     * The oldest WQE if the requester has started it; none while a retry is asked for, which
     * takes every WQE back to unsent (so a late response for it is stale, as it was when the
     * completer rewound the requester itself).
     */
    private static SendWqe headWqe(TransportQp qp) {
        return !qp.req.needRetry && qp.sq.head < qp.sq.next ? qp.sq.at(qp.sq.head) : null;
    }

    private void onSequenceNak(TransportQp qp, int psn, long now) {
        // The responder expects psn: everything before it arrived (implicit ACK).
        if (Psn.compare(psn, qp.comp.compPsn) < 0) {
            return; // an old NAK, already recovered from
        }
        if (!completeBefore(qp, psn, now)) {
            return;
        }
        if (Psn.compare(psn, qp.comp.compPsn) > 0) {
            // The NAK also acknowledges packets: the peer is making progress, so this is a
            // new retry sequence, not one more failure of the last (rxe comp.started_retry).
            // Without this, reordering alone would exhaust retry_cnt on a healthy link.
            qp.comp.retryLeft = qp.attr.retryCnt;
        }
        qp.comp.compPsn = psn;
        retry(qp, now);
    }

    /** A NAK that ends the QP: what precedes its PSN completes, the WQE it names fails with the NAK's status. */
    private void onErrorNak(TransportQp qp, int psn, CompleterOutcome nak, long now) {
        if (completeBefore(qp, psn, now)) {
            fail(qp, nak);
        }
    }

    private void onRnrNak(TransportQp qp, int psn, int timerCode, long now) {
        if (Psn.compare(psn, qp.comp.compPsn) < 0 || !completeBefore(qp, psn, now)) {
            return;
        }
        if (Psn.compare(psn, qp.comp.compPsn) > 0) {
            StallWarnings.progressed(qp); // the NAK acknowledges the packets before psn
        }
        qp.comp.compPsn = psn;
        stalls.retried(qp, StallWarnings.Cause.RNR_NAK, now);
        if (qp.comp.rnrRetryLeft == 0) {
            fail(qp, CompleterOutcome.RNR_RETRY_EXCEEDED);
            return;
        }
        if (qp.attr.rnrRetry != 7) { // 7 means retry forever (IBA)
            qp.comp.rnrRetryLeft--;
        }
        // Resend no earlier than the responder asked (REL-15b, the rxe "rnr retry" fix): the
        // requester is held until rnrDeadline, then goes back to compPsn.
        qp.retransmitDeadline = 0;
        qp.rnrDeadline = now + RnrTimer.nanos(timerCode);
        requestRetry(qp);
    }

    /** The local ACK timer or RNR back-off; called by the engine on every pass. */
    public int onTimers(TransportQp qp, long now) {
        if (qp.rnrDeadline != 0 && now - qp.rnrDeadline >= 0) {
            qp.rnrDeadline = 0;
            return 1; // the requester resumes from compPsn (its retry is already asked for)
        }
        if (qp.retransmitDeadline != 0 && now - qp.retransmitDeadline >= 0) {
            qp.retransmitDeadline = 0;
            if (qp.comp.compPsn == requesterPsn(qp)) {
                return 0; // nothing outstanding any more
            }
            qp.count(QpCounter.RETRY_TIMEOUTS);
            stalls.retried(qp, StallWarnings.Cause.TIMEOUT, now);
            retry(qp, now, true);
            return 1;
        }
        return 0;
    }

    /**
     * Go-back-N after a timeout, a sequence NAK or a lost response: retry_cnt counts them all
     * (IBA). We follow the spec where rxe does not: retry_cnt 7 means 7 retries, not infinite
     * (only rnr_retry 7 is infinite), so a dead peer always ends in RETRY_EXC_ERR.
     */
    private void retry(TransportQp qp, long now) {
        retry(qp, now, false);
    }

    /**
     * One retry per retry sequence (rxe comp.started_retry): once the requester went back to
     * compPsn, more evidence of the same loss — stale responses still in flight, a lost READ's
     * later neighbours — starts nothing new until progress is made or the timer fires.
     */
    private void retry(TransportQp qp, long now, boolean timeout) {
        if (!timeout && qp.comp.retryStarted && qp.comp.retryStartedPsn == qp.comp.compPsn) {
            return;
        }
        qp.comp.retryStarted = true;
        qp.comp.retryStartedPsn = qp.comp.compPsn;
        if (qp.comp.retryLeft == 0) {
            fail(qp, CompleterOutcome.RETRY_EXCEEDED);
            return;
        }
        qp.comp.retryLeft--;
        requestRetry(qp);
        if (qp.ackTimeoutNanos() != 0) {
            qp.retransmitDeadline = now + qp.ackTimeoutNanos();
        }
    }

    /**
     * Asks the requester to go back to compPsn (rxe need_retry): it rewinds itself on its next
     * doWork ({@link Requester#retryIfRequested}). A later request replaces an earlier one.
     */
    private static void requestRetry(TransportQp qp) {
        qp.req.needRetry = true;
        qp.req.retryPsn = qp.comp.compPsn;
    }

    /** The requester's next PSN as it will be once it has acted on a retry request. */
    private static int requesterPsn(TransportQp qp) {
        return qp.req.needRetry ? qp.req.retryPsn : qp.req.reqPsn;
    }

    /**
     * Copies response bytes into the head WR's local buffers; false, with the WR completed
     * LOC_PROT_ERR and the QP in ERR, when that memory is gone — deregistered or its Arena
     * closed, even while the copy ran (SEC-47: a closed segment throws, it never crashes).
     */
    private boolean scatter(TransportQp qp, SendWqe w, MemorySegment src, long srcOffset, int len) {
        if (w.gather.stillValid()) {
            try {
                w.gather.copyIn(src, srcOffset, w.received, len);
                return true;
            } catch (IllegalStateException closed) {
                if (w.gather.stillValid()) {
                    throw closed;
                }
            }
        }
        fail(qp, CompleterOutcome.LOCAL_MEMORY_GONE);
        return false;
    }

    /**
     * An outcome that ends the QP: counted, the oldest WQE completes with the outcome's status
     * and the QP moves to ERR (the rest flush).
     */
    private static void fail(TransportQp qp, CompleterOutcome outcome) {
        if (outcome.counter != null) {
            qp.count(outcome.counter);
        }
        SendWqe oldest = qp.sq.oldest();
        if (oldest != null) {
            qp.completeSend(oldest, outcome.status);
        }
        qp.fail();
    }
}
