package org.jrdma.soft.stage;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.Psn;

/**
 * Coalesced ACKs (issue 3, RC reliability): the responder's plain ACKs are held until the end
 * of the engine's receive burst and only the highest one per QP is sent — an ACK for PSN n
 * acknowledges every PSN up to n (IBA 9.7.5.1.2), so the ones before it add nothing. Anything
 * else the responder sends for that QP (a NAK, a READ response, an atomic ACK) first flushes
 * the held ACK, so the peer sees them in PSN order.
 */
final class CoalescingAcks implements PacketOut {
    private final PacketOut out;
    private final List<TransportQp> held = new ArrayList<>();

    CoalescingAcks(PacketOut out) {
        this.out = out;
    }

    @Override
    public void sendAck(TransportQp qp, int syndrome, int psn, int msn) {
        if (syndrome != Aeth.ACK_SYNDROME) {
            flush(qp);
            out.sendAck(qp, syndrome, psn, msn);
            return;
        }
        if (qp.ackHeld) {
            qp.count(QpCounter.ACKS_COALESCED);
            if (Psn.compare(psn, qp.ackHeldPsn) > 0) {
                qp.ackHeldPsn = psn;
            }
            return;
        }
        qp.ackHeld = true;
        qp.ackHeldPsn = psn;
        held.add(qp);
    }

    /** Sends the ACK held for {@code qp}, if any (call with the QP's lock held). */
    void flush(TransportQp qp) {
        if (qp.ackHeld) {
            qp.ackHeld = false;
            out.sendAck(qp, Aeth.ACK_SYNDROME, qp.ackHeldPsn, qp.msn);
            qp.count(QpCounter.ACKS_SENT);
        }
    }

    /** End of a receive burst: every held ACK goes out, each under its QP's lock. */
    int flushAll() {
        int n = held.size();
        for (int i = 0; i < n; i++) {
            TransportQp qp = held.get(i);
            synchronized (qp.lock) {
                flush(qp);
            }
        }
        held.clear();
        return n;
    }

    @Override
    public void sendData(TransportQp qp, int opcode, int psn, boolean ackReq, boolean solicited, long va, int rkey,
            int dmaLength, int immData, Gather gather, long offset, int length) {
        flush(qp);
        out.sendData(qp, opcode, psn, ackReq, solicited, va, rkey, dmaLength, immData, gather, offset, length);
    }

    @Override
    public void sendUd(TransportQp qp, UdDestination dest, int destQpn, int qkey, int opcode, int psn, boolean solicited,
            int immData, Gather gather, int length) {
        out.sendUd(qp, dest, destQpn, qkey, opcode, psn, solicited, immData, gather, length);
    }

    @Override
    public void sendReadRequest(TransportQp qp, int psn, long va, int rkey, int length) {
        flush(qp);
        out.sendReadRequest(qp, psn, va, rkey, length);
    }

    @Override
    public void sendAtomic(TransportQp qp, int opcode, int psn, long va, int rkey, long swapAdd, long compare) {
        flush(qp);
        out.sendAtomic(qp, opcode, psn, va, rkey, swapAdd, compare);
    }

    @Override
    public void sendReadResponse(TransportQp qp, int opcode, int psn, int msn, MemorySegment src, long srcOffset,
            int length) {
        flush(qp);
        out.sendReadResponse(qp, opcode, psn, msn, src, srcOffset, length);
    }

    @Override
    public void sendAtomicAck(TransportQp qp, int psn, int msn, long original) {
        flush(qp);
        out.sendAtomicAck(qp, psn, msn, original);
    }
}
