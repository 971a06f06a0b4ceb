package org.jrdma.soft.transport;

import org.jrdma.soft.memory.Window;
import org.jrdma.soft.wire.OpcodeTable;
import org.jrdma.soft.wire.Operation;
import org.jrdma.soft.wire.Position;
import org.jrdma.soft.wire.Psn;
import org.jrdma.soft.wire.Transport;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrOpcode;

/**
 * The send path (rxe_req.c): takes WQEs in order, cuts SENDs and WRITEs into MTU-sized
 * packets with the right FIRST/MIDDLE/LAST/ONLY opcode, sends one request for a READ or an
 * atomic, stamps PSNs and AckReq, and hands the packets to the wire. Bounded work per call: at
 * most {@code burst} packets, never more than {@link TransportLimits#MAX_UNACKED_PSNS} PSNs beyond
 * the oldest unacknowledged one, and at most max_rd_atomic READs/atomics outstanding.
 */
public final class Requester {
    private static final int COMPARE_SWAP = 0x13;
    private static final int FETCH_ADD = 0x14;

    /** What the requester does next with the WQE at sq.next (rxe_req.c's checks before it builds a packet). */
    enum Step {
        /** Send its next packet. */
        SEND,
        /** Nothing more goes out from it now: go on to the next WQE. */
        NEXT_WQE,
        /** End the pass: it waits (fence, SQD, max_rd_atomic, the window) or it failed. */
        STOP
    }

    private final PacketOut out;

    public Requester(PacketOut out) {
        this.out = out;
    }

    /** Sends up to {@code burst} packets; returns how many went out. */
    public int doWork(TransportQp qp, long now, int burst) {
        retryIfRequested(qp);
        if (!(qp.state == QpState.RTS || qp.state == QpState.SQD) || qp.rnrDeadline != 0) {
            return 0;
        }
        boolean reliable = qp.type == QpType.RC;
        qp.completeDone();
        int sent = 0;
        while (sent < burst && qp.sq.next < qp.sq.tail) {
            SendWqe w = qp.sq.at(qp.sq.next);
            Step step = next(qp, w, reliable);
            if (step == Step.STOP) {
                break;
            }
            if (step == Step.NEXT_WQE) {
                continue;
            }
            try {
                if (qp.datagram) {
                    sendDatagram(qp, w);
                } else if (w.needsResponse()) {
                    sendRequestOnly(qp, w);
                } else {
                    sendNextDataPacket(qp, w);
                }
            } catch (IllegalStateException closed) {
                // SEC-47: an Arena closed between the check above and the copy (nothing was sent).
                if (w.gather.stillValid()) {
                    throw closed;
                }
                localMemoryGone(qp, w);
                break;
            }
            if (reliable) {
                armTimer(qp, now);
            }
            sent++;
        }
        // UC and UD sends complete when sent (no ACKs, §4.1 step 8), and local work when done.
        qp.completeDone();
        return sent;
    }

    /**
     * Goes back to the PSN the completer asked for (rxe req_retry after need_retry): the WQE
     * holding it resends from that packet (a READ asks again for what it has not received),
     * later ones from their start, with the same PSNs as before. Also called before sq_psn is
     * set by modify_qp, so a request never outlives the PSNs it was made for.
     */
    static void retryIfRequested(TransportQp qp) {
        if (!qp.req.needRetry) {
            return;
        }
        qp.req.needRetry = false;
        int psn = qp.req.retryPsn;
        qp.req.reqPsn = psn;
        qp.req.packetsSinceAckReq = 0;
        qp.sq.next = qp.sq.head;
        for (long i = qp.sq.head; i < qp.sq.tail; i++) {
            SendWqe w = qp.sq.at(i);
            if (w.state == SendWqe.State.POSTED) {
                break;
            }
            if (w.state == SendWqe.State.DONE) {
                continue;
            }
            w.sentPackets = i == qp.sq.head ? Math.max(0, Math.min(w.packets, Psn.diff(psn, w.firstPsn))) : 0;
            w.state = SendWqe.State.SENDING;
        }
        // Later WQEs keep their PSN ranges: resending in order from psn gives them the same
        // PSNs again, so startWqe is not run for them a second time.
    }

    /** The checks in order; NEXT_WQE has moved sq.next on already. */
    private Step next(TransportQp qp, SendWqe w, boolean reliable) {
        if (w.state == SendWqe.State.POSTED && !startWqe(qp, w)) {
            return Step.STOP;
        }
        if (w.state == SendWqe.State.DONE) {
            qp.sq.next++;
            return Step.NEXT_WQE;
        }
        if (reliable && Psn.diff(qp.req.reqPsn, qp.comp.compPsn) >= TransportLimits.MAX_UNACKED_PSNS) {
            return Step.STOP; // window full: wait for ACKs
        }
        if (!w.needsResponse() && !qp.datagram && w.sentPackets >= w.packets) {
            w.state = SendWqe.State.PENDING; // all of it is out (an ACK moved compPsn past it)
            qp.sq.next++;
            return Step.NEXT_WQE;
        }
        if (!w.gather.stillValid() && localMemoryGone(qp, w)) {
            return Step.STOP;
        }
        return Step.SEND;
    }

    /**
     * SEC-47: a WR's local memory went away (deregistered, or its Arena closed) after it
     * started. Nothing more is sent from it; once it is at the head it completes with
     * LOC_PROT_ERR and the QP moves to ERR, as a bad lkey does (earlier WRs complete first).
     * Returns true: the caller stops sending.
     */
    private static boolean localMemoryGone(TransportQp qp, SendWqe w) {
        if (qp.sq.next == qp.sq.head) {
            qp.completeSend(w, WcStatus.LOC_PROT_ERR);
            qp.fail();
        }
        return true;
    }

    /**
     * UD and GSI: one SEND_ONLY per WR, to the WR's address and QPN, with a DETH whose source QP
     * is this QP's number (1 for the GSI QP); done once sent.
     */
    private void sendDatagram(TransportQp qp, SendWqe w) {
        int opcode = OpcodeTable.opcodeFor(Transport.UD, Operation.SEND, w.opcode.hasImmediate(), Position.ONLY);
        int psn = qp.req.reqPsn;
        out.sendUd(qp, w.udDestination, w.remoteQpn, w.remoteQkey, opcode, psn, w.solicited, w.immData, w.gather,
                (int) w.length());
        qp.req.reqPsn = Psn.next(psn);
        w.state = SendWqe.State.DONE;
        qp.sq.next++;
    }

    /**
     * Starts a WQE: checks what must hold before its first packet, assigns its PSN range.
     * Returns false when nothing can be sent from it now (it waits, or it failed).
     */
    private boolean startWqe(TransportQp qp, SendWqe w) {
        if (qp.state == QpState.SQD) {
            return false; // drain: finish the message in flight, start no new one
        }
        if (w.fenced() && qp.sq.next != qp.sq.head) {
            return false; // IBV_SEND_FENCE: wait until every earlier WR has completed
        }
        if (w.postError != null || !w.gather.stillValid()) {
            // rxe: a bad lkey completes with LOC_PROT_ERR and moves the QP to ERR; earlier
            // WQEs complete first, so the error waits until this one reaches the head.
            if (qp.sq.next == qp.sq.head) {
                qp.completeSend(w, w.postError != null ? w.postError : WcStatus.LOC_PROT_ERR);
                qp.fail();
            }
            return false;
        }
        if (w.isLocal()) {
            return executeLocal(qp, w);
        }
        if (w.needsResponse()) {
            if (qp.req.rdAtomicOutstanding >= qp.attr.maxRdAtomic) {
                return false; // max_rd_atomic READs/atomics in flight (rxe check_init_depth)
            }
            qp.req.rdAtomicOutstanding++;
            w.holdsRdAtomicSlot = true;
        }
        int mtu = qp.datagram ? qp.udMtuBytes : qp.mtuBytes();
        long len = w.length();
        w.packets = w.isAtomic() || qp.datagram ? 1 : (int) Math.max(1, (len + mtu - 1) / mtu);
        w.firstPsn = qp.req.reqPsn;
        w.lastPsn = Psn.add(qp.req.reqPsn, w.packets - 1);
        w.sentPackets = 0;
        w.state = SendWqe.State.SENDING;
        return true;
    }

    /**
     * BIND_MW and LOCAL_INV run here, in send-queue order, once they reach the head (so their
     * effect and any error are ordered after the work before them). They send nothing and are
     * DONE at once; a failure is an MW_BIND_ERR completion and the QP goes to ERR.
     */
    private boolean executeLocal(TransportQp qp, SendWqe w) {
        if (qp.sq.next != qp.sq.head) {
            return false;
        }
        boolean ok;
        if (w.opcode == WrOpcode.BIND_MW) {
            ok = w.mw.bind(w.bind, w.newRkey, qp);
        } else {
            Window mw = qp.memory.windowByRkey(w.invalidateRkey);
            ok = mw != null && mw.invalidate(qp.pd);
        }
        if (!ok) {
            qp.completeSend(w, WcStatus.MW_BIND_ERR);
            qp.fail();
            return false;
        }
        w.state = SendWqe.State.DONE;
        return true;
    }

    private void sendNextDataPacket(TransportQp qp, SendWqe w) {
        int mtu = qp.mtuBytes();
        int index = w.sentPackets;
        long offset = (long) index * mtu;
        int length = (int) Math.min(mtu, w.length() - offset);
        boolean first = index == 0;
        boolean last = index == w.packets - 1;
        Position position = first ? (last ? Position.ONLY : Position.FIRST) : (last ? Position.LAST : Position.MIDDLE);
        Operation operation = w.isWrite() ? Operation.RDMA_WRITE : Operation.SEND;
        boolean reliable = qp.type == QpType.RC;
        Transport transport = reliable ? Transport.RC : Transport.UC;
        int opcode = w.opcode == WrOpcode.SEND_WITH_INV && last
                ? OpcodeTable.sendWithInvalidateOpcode(position)
                : OpcodeTable.opcodeFor(transport, operation, w.opcode.hasImmediate() && last, position);
        int psn = Psn.add(w.firstPsn, index);
        boolean solicited = last && w.solicited && !w.isWrite() || last && w.solicited && w.opcode == WrOpcode.RDMA_WRITE_WITH_IMM;
        // UC has no ACKs, so no AckReq either. ImmDt or IETH carry the immediate or the rkey.
        int immOrRkey = w.opcode == WrOpcode.SEND_WITH_INV ? w.invalidateRkey : w.immData;
        out.sendData(qp, opcode, psn, reliable && ackRequest(qp, last), solicited, w.remoteAddr, w.rkey, (int) w.length(),
                immOrRkey, w.gather, offset, length);
        sent(qp, psn);
        w.sentPackets++;
        if (last) {
            w.state = reliable ? SendWqe.State.PENDING : SendWqe.State.DONE;
            qp.sq.next++;
        }
    }

    /**
     * A READ or an atomic: one request packet. A READ resumed after a retry asks only for the
     * part not yet received, under the retry PSN (rxe req_retry): the responder serves it from
     * its resources as a duplicate.
     */
    private void sendRequestOnly(TransportQp qp, SendWqe w) {
        int psn = qp.req.reqPsn;
        if (w.isRead()) {
            long done = (long) Psn.diff(psn, w.firstPsn) * qp.mtuBytes();
            out.sendReadRequest(qp, psn, w.remoteAddr + done, w.rkey, (int) (w.length() - done));
        } else {
            int opcode = w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP ? COMPARE_SWAP : FETCH_ADD;
            long swapAdd = w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP ? w.swap : w.compareAdd;
            long compare = w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP ? w.compareAdd : 0;
            out.sendAtomic(qp, opcode, psn, w.remoteAddr, w.rkey, swapAdd, compare);
        }
        qp.req.packetsSinceAckReq = 0;
        if (Psn.compare(psn, qp.req.sentHighPsn) < 0) {
            qp.count(QpCounter.RETRANSMITTED_PACKETS);
        }
        qp.req.reqPsn = Psn.next(w.lastPsn); // a READ takes a PSN for each response packet
        if (Psn.compare(qp.req.reqPsn, qp.req.sentHighPsn) > 0) {
            qp.req.sentHighPsn = qp.req.reqPsn;
        }
        w.state = SendWqe.State.PENDING;
        qp.sq.next++;
    }

    /** rxe: AckReq on the last packet of every message and at least every 64 packets. */
    private static boolean ackRequest(TransportQp qp, boolean last) {
        qp.req.packetsSinceAckReq++;
        boolean ackReq = last || qp.req.packetsSinceAckReq >= TransportLimits.MAX_PKT_PER_ACK;
        if (ackReq) {
            qp.req.packetsSinceAckReq = 0;
        }
        return ackReq;
    }

    private static void sent(TransportQp qp, int psn) {
        if (Psn.compare(psn, qp.req.sentHighPsn) < 0) {
            qp.count(QpCounter.RETRANSMITTED_PACKETS);
        } else {
            qp.req.sentHighPsn = Psn.next(psn);
        }
        qp.req.reqPsn = Psn.next(psn);
    }

    private static void armTimer(TransportQp qp, long now) {
        if (qp.retransmitDeadline == 0 && qp.ackTimeoutNanos() != 0) {
            qp.retransmitDeadline = now + qp.ackTimeoutNanos();
        }
    }
}
