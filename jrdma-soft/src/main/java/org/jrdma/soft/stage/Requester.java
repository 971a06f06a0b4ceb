package org.jrdma.soft.stage;

import org.jrdma.soft.SoftLimits;
import org.jrdma.soft.wire.OpcodeTable;
import org.jrdma.soft.wire.Operation;
import org.jrdma.soft.wire.Position;
import org.jrdma.soft.wire.Transport;
import org.jrdma.soft.wire.Psn;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.WcStatus;

/**
 * The send path (rxe_req.c): takes WQEs in order, cuts them into MTU-sized packets with the
 * right FIRST/MIDDLE/LAST/ONLY opcode, stamps PSNs and AckReq, and hands them to the wire.
 * Bounded work per call: at most {@code burst} packets, and never more than
 * {@link SoftLimits#MAX_UNACKED_PSNS} PSNs beyond the oldest unacknowledged one.
 */
public final class Requester {
    private final PacketOut out;

    public Requester(PacketOut out) {
        this.out = out;
    }

    /** Sends up to {@code burst} packets; returns how many went out. */
    public int doWork(TransportQp qp, long now, int burst) {
        if (!(qp.state == QpState.RTS || qp.state == QpState.SQD) || qp.rnrDeadline != 0) {
            return 0;
        }
        int sent = 0;
        while (sent < burst && qp.sqNext < qp.sqTail) {
            SendWqe w = qp.sq[TransportQp.slot(qp.sqNext, qp.sq.length)];
            if (w.state == SendWqe.State.POSTED && !startWqe(qp, w)) {
                break;
            }
            if (Psn.diff(qp.reqPsn, qp.compPsn) >= SoftLimits.MAX_UNACKED_PSNS) {
                break; // window full: wait for ACKs
            }
            sendNextPacket(qp, w, now);
            sent++;
        }
        return sent;
    }

    /**
     * Starts a WQE: assigns its PSN range, or fails it now when it was refused at post time
     * (a bad lkey completes with LOC_PROT_ERR and moves the QP to ERR, as in rxe).
     * Returns false when nothing can be sent from it now.
     */
    private boolean startWqe(TransportQp qp, SendWqe w) {
        if (qp.state == QpState.SQD) {
            return false; // drain: finish the message in flight, start no new one
        }
        if (w.postError != null || !w.gather.stillValid()) {
            WcStatus status = w.postError != null ? w.postError : WcStatus.LOC_PROT_ERR;
            if (qp.sqNext == qp.sqHead) {
                qp.completeSend(w, status);
                qp.fail();
            }
            return false; // earlier WQEs first: the error completes when it reaches the head
        }
        int mtu = qp.mtuBytes();
        long len = w.length();
        w.packets = (int) Math.max(1, (len + mtu - 1) / mtu);
        w.firstPsn = qp.reqPsn;
        w.lastPsn = Psn.add(qp.reqPsn, w.packets - 1);
        w.sentPackets = 0;
        w.state = SendWqe.State.SENDING;
        return true;
    }

    private void sendNextPacket(TransportQp qp, SendWqe w, long now) {
        int mtu = qp.mtuBytes();
        int index = w.sentPackets;
        long offset = (long) index * mtu;
        int length = (int) Math.min(mtu, w.length() - offset);
        boolean first = index == 0;
        boolean last = index == w.packets - 1;
        boolean withImm = w.opcode.hasImmediate() && last;
        Position position = first ? (last ? Position.ONLY : Position.FIRST) : (last ? Position.LAST : Position.MIDDLE);
        int opcode = OpcodeTable.opcodeFor(Transport.RC, Operation.SEND, withImm, position);
        int psn = Psn.add(w.firstPsn, index);
        // rxe: AckReq on the last packet of every message and at least every 64 packets.
        qp.packetsSinceAckReq++;
        boolean ackReq = last || qp.packetsSinceAckReq >= SoftLimits.MAX_PKT_PER_ACK;
        if (ackReq) {
            qp.packetsSinceAckReq = 0;
        }
        boolean solicited = last && w.solicited;
        out.sendRequest(qp, opcode, psn, ackReq, solicited, withImm, w.immData, w.gather, offset, length);
        if (Psn.compare(psn, qp.sentHighPsn) < 0) {
            qp.count(QpCounter.RETRANSMITTED_PACKETS);
        } else {
            qp.sentHighPsn = Psn.next(psn);
        }
        qp.reqPsn = Psn.next(psn);
        w.sentPackets++;
        if (last) {
            w.state = SendWqe.State.PENDING;
            qp.sqNext++;
        }
        if (qp.retransmitDeadline == 0 && qp.ackTimeoutNanos() != 0) {
            qp.retransmitDeadline = now + qp.ackTimeoutNanos();
        }
    }
}
