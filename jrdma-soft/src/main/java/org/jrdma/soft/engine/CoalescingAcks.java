package org.jrdma.soft.engine;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.soft.memory.Gather;
import org.jrdma.soft.transport.AckPolicy;
import org.jrdma.soft.transport.HeldAck;
import org.jrdma.soft.transport.PacketOut;
import org.jrdma.soft.transport.QpCounter;
import org.jrdma.soft.transport.TransportQp;
import org.jrdma.soft.transport.UdDestination;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.Psn;

/**
 * Coalesced, deferred ACKs (issue 3, RC reliability; issue 4, latency): the responder's plain
 * ACKs are held and only the highest one per QP is sent — an ACK for PSN n acknowledges every
 * PSN up to n (IBA 9.7.5.1.2), so the ones before it add nothing. An ACK held during engine
 * pass N goes out at the end of pass N+1: the application that polled the completion in pass N
 * gets to post its answer first, so in a request/response exchange the answer leaves before
 * the ACK instead of one send system call (≈ 2 µs on loopback) later. Passes follow each other
 * within microseconds while anyone polls; when no one does, the engine thread sends the held
 * ACK within {@code SoftHca}'s hold limit, and a QP that is destroyed, reset or fails sends
 * it at once. Anything else the responder sends for that QP (a NAK, a READ response, an atomic
 * ACK) first flushes the held ACK, so the peer sees the responses in PSN order; the QP's own
 * requests do not, they are another PSN space.
 */
public final class CoalescingAcks implements AckPolicy {
    private final PacketOut out;
    private final List<TransportQp> held = new ArrayList<>();
    private long pass;
    /** Read by the engine thread without the engine lock, to decide whether it may sleep. */
    private volatile boolean anyHeld;

    public CoalescingAcks(PacketOut out) {
        this.out = out;
    }

    @Override
    public void sendAck(TransportQp qp, int syndrome, int psn, int msn) {
        if (syndrome != Aeth.ACK_SYNDROME) {
            flush(qp);
            out.sendAck(qp, syndrome, psn, msn);
            return;
        }
        HeldAck ack = qp.heldAck();
        if (ack.held) {
            qp.count(QpCounter.ACKS_COALESCED);
            if (Psn.compare(psn, ack.psn) > 0) {
                ack.psn = psn;
            }
            return;
        }
        ack.held = true;
        ack.psn = psn;
        ack.pass = pass;
        held.add(qp);
        anyHeld = true;
    }

    @Override
    public void beginPass() {
        pass++;
    }

    @Override
    public boolean anyHeld() {
        return anyHeld;
    }

    @Override
    public void flush(TransportQp qp) {
        HeldAck ack = qp.heldAck();
        if (ack.held) {
            ack.held = false;
            out.sendAck(qp, Aeth.ACK_SYNDROME, ack.psn, qp.responderMsn());
            qp.count(QpCounter.ACKS_SENT);
        }
    }

    /**
     * End of a pass: the ACKs held since an earlier pass go out, each under its QP's lock; the
     * ones held during this pass wait for the next. Returns how many were sent.
     */
    @Override
    public int flushAll() {
        return flushHeldBefore(pass);
    }

    @Override
    public int flushEverything() {
        return flushHeldBefore(Long.MAX_VALUE);
    }

    private int flushHeldBefore(long limit) {
        int sent = 0;
        int kept = 0;
        for (int i = 0, n = held.size(); i < n; i++) {
            TransportQp qp = held.get(i);
            synchronized (qp.lock()) {
                if (!qp.heldAck().held) {
                    continue; // flushed already (by a response, or the QP went away)
                }
                if (qp.heldAck().pass < limit) {
                    flush(qp);
                    sent++;
                    continue;
                }
            }
            held.set(kept++, qp);
        }
        for (int i = held.size() - 1; i >= kept; i--) {
            held.remove(i);
        }
        anyHeld = kept > 0;
        return sent;
    }

    @Override
    public void sendData(TransportQp qp, int opcode, int psn, boolean ackReq, boolean solicited, long va, int rkey,
            int dmaLength, int immData, Gather gather, long offset, int length) {
        out.sendData(qp, opcode, psn, ackReq, solicited, va, rkey, dmaLength, immData, gather, offset, length);
    }

    @Override
    public void sendUd(TransportQp qp, UdDestination dest, int destQpn, int qkey, int opcode, int psn, boolean solicited,
            int immData, Gather gather, int length) {
        out.sendUd(qp, dest, destQpn, qkey, opcode, psn, solicited, immData, gather, length);
    }

    @Override
    public void sendReadRequest(TransportQp qp, int psn, long va, int rkey, int length) {
        out.sendReadRequest(qp, psn, va, rkey, length);
    }

    @Override
    public void sendAtomic(TransportQp qp, int opcode, int psn, long va, int rkey, long swapAdd, long compare) {
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
