package org.jrdma.soft.stage;

import java.lang.foreign.MemorySegment;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.Operation;
import org.jrdma.soft.wire.RxPacket;
import org.jrdma.soft.wire.Psn;
import org.jrdma.verbs.WcStatus;

/**
 * The receive path of requests (rxe_resp.c), as a chain of checks that each either pass or
 * end the packet: CHK_PSN → CHK_OP_SEQ → CHK_OP_VALID → CHK_RESOURCE → CHK_LENGTH → EXECUTE →
 * COMPLETE → ACKNOWLEDGE. Errors follow the IBA classes rxe quotes: class B (sequence, RNR)
 * NAKs and drops; class C (bad request) NAKs, fails the receive and moves the QP to ERR.
 */
public final class Responder {
    /** What the chain decided for one packet. */
    enum Step { EXECUTE, DROP, ERROR }

    private final PacketOut out;

    public Responder(PacketOut out) {
        this.out = out;
    }

    /** Handles a request packet; {@code data} is the memory view of the packet's buffer. */
    public void onRequest(TransportQp qp, RxPacket pkt, MemorySegment data) {
        if (!qp.state.receives()) {
            return; // rxe: requests need the responder ready (RTR/RTS); counted by the caller
        }
        if (checkPsn(qp, pkt) != Step.EXECUTE) {
            return;
        }
        if (checkOpSequence(qp, pkt) != Step.EXECUTE
                || checkOpValid(qp, pkt) != Step.EXECUTE
                || checkResource(qp, pkt) != Step.EXECUTE
                || checkLength(qp, pkt) != Step.EXECUTE) {
            return;
        }
        execute(qp, pkt, data);
    }

    /**
     * CHK_PSN: expected → go on; behind → a duplicate, re-ACKed with the last executed PSN and
     * never re-executed (C9-105); ahead → one sequence NAK carrying the expected PSN, then
     * silence until an in-order packet arrives (rxe sent_psn_nak).
     */
    private Step checkPsn(TransportQp qp, RxPacket pkt) {
        int cmp = Psn.compare(pkt.bth().psn(), qp.ePsn);
        if (cmp == 0) {
            qp.sentPsnNak = false;
            return Step.EXECUTE;
        }
        if (cmp > 0) {
            qp.count(QpCounter.OUT_OF_SEQUENCE);
            if (!qp.sentPsnNak) {
                qp.sentPsnNak = true;
                qp.count(QpCounter.SEQ_NAKS_SENT);
                out.sendAck(qp, Aeth.NAK_PSN_SEQUENCE_ERROR, qp.ePsn, qp.msn);
            }
            return Step.DROP;
        }
        qp.count(QpCounter.DUPLICATE_REQUESTS);
        out.sendAck(qp, Aeth.ACK_SYNDROME, Psn.add(qp.ePsn, -1), qp.msn);
        qp.count(QpCounter.ACKS_SENT);
        return Step.DROP;
    }

    private static boolean isSend(RxPacket pkt) {
        return pkt.opcode().operation() == Operation.SEND;
    }

    /** FIRST or ONLY: the packet starts a message. */
    private static boolean starts(RxPacket pkt) {
        return pkt.opcode().position().isStart();
    }

    /** LAST or ONLY: the packet ends a message. */
    private static boolean ends(RxPacket pkt) {
        return pkt.opcode().position().isEnd();
    }

    /** CHK_OP_SEQ: inside a SEND only MIDDLE/LAST may follow; outside, only FIRST/ONLY. */
    private Step checkOpSequence(TransportQp qp, RxPacket pkt) {
        boolean ok = qp.inSend ? isSend(pkt) && !starts(pkt) : starts(pkt);
        if (!ok) {
            return invalidRequest(qp, pkt, WcStatus.REM_INV_REQ_ERR);
        }
        return Step.EXECUTE;
    }

    /**
     * CHK_OP_VALID: this version of the soft provider executes SEND only; RDMA WRITE, READ
     * and atomics are refused as an invalid request (NAK 0x61), which is also what a QP
     * without REMOTE_* access answers.
     */
    private Step checkOpValid(TransportQp qp, RxPacket pkt) {
        if (!isSend(pkt)) {
            return invalidRequest(qp, pkt, WcStatus.REM_INV_REQ_ERR);
        }
        return Step.EXECUTE;
    }

    /** CHK_RESOURCE: a new SEND needs a posted receive; none → RNR NAK and drop (class B). */
    private Step checkResource(TransportQp qp, RxPacket pkt) {
        if (starts(pkt)) {
            if (qp.rqHead == qp.rqTail) {
                qp.count(QpCounter.RNR_NAKS_SENT);
                out.sendAck(qp, Aeth.rnrNakSyndrome(qp.minRnrTimer), pkt.bth().psn(), qp.msn);
                return Step.DROP;
            }
            RecvWqe w = qp.rq[TransportQp.slot(qp.rqHead, qp.rq.length)];
            if (w.postError != null || !w.gather.stillValid()) {
                // A receive buffer outside registered memory: the receiver sees LOC_PROT_ERR
                // and the sender REM_OP_ERR (rdma-unit-test BadRecvAddr).
                qp.completeRecv(w, WcStatus.LOC_PROT_ERR, 0, false, 0, false);
                out.sendAck(qp, Aeth.NAK_REMOTE_OPERATIONAL_ERROR, pkt.bth().psn(), qp.msn);
                qp.fail();
                return Step.ERROR;
            }
            qp.recvOffset = 0;
        }
        return Step.EXECUTE;
    }

    /**
     * CHK_LENGTH: FIRST and MIDDLE carry exactly one MTU, LAST 1..MTU, ONLY 0..MTU (§4.2).
     * A message longer than the receive buffer fails the receive with LOC_LEN_ERR and NAKs
     * invalid request (rdma-unit-test SendWithTooSmallRecv).
     */
    private Step checkLength(TransportQp qp, RxPacket pkt) {
        int mtu = qp.mtuBytes();
        int len = pkt.payloadLength();
        boolean ok = ends(pkt) ? (starts(pkt) ? len <= mtu : len >= 1 && len <= mtu) : len == mtu;
        if (!ok) {
            return invalidRequest(qp, pkt, WcStatus.REM_INV_REQ_ERR);
        }
        RecvWqe w = qp.rq[TransportQp.slot(qp.rqHead, qp.rq.length)];
        if (qp.recvOffset + len > w.gather.totalLength()) {
            return invalidRequest(qp, pkt, WcStatus.LOC_LEN_ERR);
        }
        return Step.EXECUTE;
    }

    /** Class C: NAK invalid request, complete the receive in progress with an error, QP → ERR. */
    private Step invalidRequest(TransportQp qp, RxPacket pkt, WcStatus recvStatus) {
        out.sendAck(qp, Aeth.NAK_INVALID_REQUEST, pkt.bth().psn(), qp.msn);
        if ((qp.inSend || starts(pkt)) && qp.rqHead < qp.rqTail && isSend(pkt)) {
            qp.completeRecv(qp.rq[TransportQp.slot(qp.rqHead, qp.rq.length)], recvStatus, 0, false, 0, false);
        }
        qp.fail();
        return Step.ERROR;
    }

    /** EXECUTE + COMPLETE + ACKNOWLEDGE for a SEND packet. */
    private void execute(TransportQp qp, RxPacket pkt, MemorySegment data) {
        RecvWqe w = qp.rq[TransportQp.slot(qp.rqHead, qp.rq.length)];
        if (pkt.payloadLength() > 0) {
            w.gather.copyIn(data, pkt.payloadOffset(), qp.recvOffset, pkt.payloadLength());
            qp.recvOffset += pkt.payloadLength();
        }
        qp.ePsn = Psn.next(pkt.bth().psn());
        if (ends(pkt)) {
            qp.inSend = false;
            qp.msn = Psn.next(qp.msn); // MSN counts completed messages (§2.7), 24-bit like a PSN
            boolean withImm = pkt.opcode().hasImmediate();
            int imm = withImm ? pkt.immDt().immediate() : 0;
            qp.completeRecv(w, WcStatus.SUCCESS, qp.recvOffset, withImm, imm, pkt.bth().se());
            qp.recvOffset = 0;
        } else {
            qp.inSend = true;
        }
        // Packets without AckReq are acknowledged by the next ACK (an ACK covers all PSNs ≤ it).
        if (pkt.bth().ackReq()) {
            out.sendAck(qp, Aeth.ACK_SYNDROME, pkt.bth().psn(), qp.msn);
            qp.count(QpCounter.ACKS_SENT);
        }
    }
}
