package org.jrdma.soft.transport;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.jrdma.soft.memory.RemoteAccess;
import org.jrdma.soft.wire.AtomicEth;
import org.jrdma.soft.wire.Operation;
import org.jrdma.soft.wire.Psn;
import org.jrdma.soft.wire.Reth;
import org.jrdma.soft.wire.RxPacket;

/**
 * The responder's READ_REPLY and ATOMIC_REPLY states (rxe read_reply, atomic_reply,
 * duplicate_request). A READ takes a responder resource and is answered by ceil(len/MTU)
 * response packets (FIRST/MIDDLE/LAST or ONLY, AETH on all but MIDDLE), re-reading memory and
 * re-checking the region at send time, a bounded number per engine pass. An atomic executes
 * on the target's 64 bits in host byte order — with a real atomic instruction, since other
 * devices and the application may touch the same memory — and its original value is kept,
 * so a duplicate is answered without executing twice.
 */
final class ReadAtomicResponder {
    private static final int READ_RESPONSE_FIRST = 0x0D;
    private static final int READ_RESPONSE_MIDDLE = 0x0E;
    private static final int READ_RESPONSE_LAST = 0x0F;
    private static final int READ_RESPONSE_ONLY = 0x10;
    /** Response packets sent at once when a READ arrives; the engine sends the rest. */
    private static final int FIRST_BURST = 16;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final PacketOut out;
    private final ResponderErrors errors;

    ReadAtomicResponder(PacketOut out, ResponderErrors errors) {
        this.out = out;
        this.errors = errors;
    }

    void executeRead(TransportQp qp, RxPacket pkt, RemoteAccess access) {
        Reth reth = pkt.reth();
        int psn = pkt.bth().psn();
        long length = reth.dmaLengthUnsigned();
        ResponderResources.Entry e = qp.resp.resources.allocate();
        e.atomic = false;
        e.firstPsn = psn;
        e.lastPsn = Psn.add(psn, packets(length, qp.mtuBytes()) - 1);
        e.va = reth.va();
        e.rkey = reth.rkey();
        e.length = length;
        e.mr = access.region();
        e.target = access.target();
        e.targetOffset = access.offset();
        e.replayHighPsn = psn;
        e.stalledReplays = 0;
        qp.resp.msn = Psn.next(qp.resp.msn); // IBA C9-148: a READ counts in the MSN when it is accepted
        qp.resp.ePsn = Psn.next(e.lastPsn); // the responses use the PSNs up to lastPsn
        e.replayEPsn = qp.resp.ePsn;
        qp.resp.resources.startReply(e, psn, 0, length);
        continueReply(qp, FIRST_BURST);
    }

    /** Ends the reply in progress as a {@link ResponderOutcome#REPLY_RKEY_VIOLATION}; returns the packets sent (its NAK). */
    private int stopWithAccessError(TransportQp qp) {
        ResponderResources r = qp.resp.resources;
        int psn = r.replyPsn;
        r.stopReply();
        errors.apply(qp, ResponderOutcome.REPLY_RKEY_VIOLATION, psn);
        return 1;
    }

    private static int packets(long length, int mtu) {
        return (int) Math.max(1, (length + mtu - 1) / mtu);
    }

    /** Sends up to {@code burst} packets of the READ reply in progress; returns how many. */
    int continueReply(TransportQp qp, int burst) {
        ResponderResources r = qp.resp.resources;
        ResponderResources.Entry e = r.replying;
        int sent = 0;
        int mtu = qp.mtuBytes();
        while (e != null && sent < burst) {
            if (e.mr != null && !e.mr.isValid()) {
                // The region was deregistered mid-reply (SEC-46): stop, no use-after-free.
                return sent + stopWithAccessError(qp);
            }
            long remaining = r.replyEnd - r.replyOffset;
            int n = (int) Math.min(mtu, remaining);
            boolean last = remaining <= mtu;
            int opcode = r.replyFirst ? (last ? READ_RESPONSE_ONLY : READ_RESPONSE_FIRST)
                    : (last ? READ_RESPONSE_LAST : READ_RESPONSE_MIDDLE);
            try {
                out.sendReadResponse(qp, opcode, r.replyPsn, qp.resp.msn, e.target, e.targetOffset + r.replyOffset, n);
            } catch (IllegalStateException closed) {
                // SEC-47: the Arena was closed between the check above and the copy (a closed
                // segment throws; nothing was sent). The same end as a deregistration.
                if (e.mr == null || e.mr.isValid()) {
                    throw closed;
                }
                return sent + stopWithAccessError(qp);
            }
            sent++;
            r.replyOffset += n;
            r.replyPsn = Psn.next(r.replyPsn);
            r.replyFirst = false;
            if (last) {
                r.stopReply();
                e = null;
            }
        }
        return sent;
    }

    /**
     * A READ request behind ePSN: the requester lost (some of) the responses and asks again,
     * possibly for the tail only. Replay from the resource that holds its PSN, if the new
     * range lies inside the original one under the same rkey; otherwise drop (class D).
     */
    void duplicateRead(TransportQp qp, RxPacket pkt) {
        int psn = pkt.bth().psn();
        ResponderResources.Entry e = qp.resp.resources.findRead(psn);
        if (e == null) {
            qp.count(QpCounter.DUPLICATES_DROPPED);
            return;
        }
        long va = pkt.reth().va();
        long length = pkt.reth().dmaLengthUnsigned();
        long skip = va - e.va;
        boolean inside = pkt.reth().rkey() == e.rkey && skip >= 0 && skip <= e.length && length <= e.length - skip
                && skip == (long) Psn.diff(psn, e.firstPsn) * qp.mtuBytes();
        if (!inside) {
            qp.count(QpCounter.DUPLICATES_DROPPED);
            return;
        }
        if (!worthReplaying(qp, e, psn)) {
            qp.count(QpCounter.DUPLICATE_READS_LIMITED);
            return;
        }
        qp.resp.resources.startReply(e, psn, skip, skip + length);
        continueReply(qp, FIRST_BURST);
    }

    /**
     * Replays of one READ in a row that start no later than the one before, while the requester
     * sends nothing new: retry_cnt is at most 7, and a go-back-N rewind for an earlier packet
     * re-sends the READ too, so allow twice that.
     */
    static final int MAX_STALLED_REPLAYS = 16;

    /**
     * Bounds duplicate-READ amplification (SEC-20): one small spoofed request would otherwise
     * make us send the whole (up to 2 GiB) range again, as often as it is repeated. A genuine
     * requester asks again only for what it lacks, from its first missing packet, and gives up
     * after retry_cnt retries that make no progress. So (a) a request for a PSN the reply in
     * progress has not reached yet is redundant — that reply will send it; (b) a replay must
     * start later than every earlier replay of the READ, or the requester must have sent new
     * requests since the last one (ePSN moved), or it is one of at most
     * {@value #MAX_STALLED_REPLAYS} in a row that do neither. Anything else is counted and
     * dropped. rxe replays every duplicate in range; this is stricter, not for honest peers.
     */
    private static boolean worthReplaying(TransportQp qp, ResponderResources.Entry e, int psn) {
        ResponderResources r = qp.resp.resources;
        if (r.replying == e && Psn.compare(psn, r.replyPsn) >= 0) {
            return false;
        }
        if (Psn.compare(psn, e.replayHighPsn) > 0 || qp.resp.ePsn != e.replayEPsn) {
            e.replayHighPsn = Psn.compare(psn, e.replayHighPsn) > 0 ? psn : e.replayHighPsn;
            e.replayEPsn = qp.resp.ePsn;
            e.stalledReplays = 0;
            return true;
        }
        if (e.stalledReplays >= MAX_STALLED_REPLAYS) {
            return false;
        }
        e.stalledReplays++;
        return true;
    }

    void executeAtomic(TransportQp qp, RxPacket pkt, RemoteAccess access) {
        AtomicEth a = pkt.atomicEth();
        int psn = pkt.bth().psn();
        long original = pkt.opcode().operation() == Operation.COMPARE_SWAP
                ? (long) LONG.compareAndExchange(access.target(), access.offset(), a.compare(), a.swapAdd())
                : (long) LONG.getAndAdd(access.target(), access.offset(), a.swapAdd());
        ResponderResources.Entry e = qp.resp.resources.allocate();
        e.atomic = true;
        e.firstPsn = psn;
        e.lastPsn = psn;
        e.original = original;
        e.mr = null;
        e.target = null;
        qp.resp.msn = Psn.next(qp.resp.msn);
        qp.resp.ePsn = Psn.next(psn);
        out.sendAtomicAck(qp, psn, qp.resp.msn, original);
    }

    /** A repeated atomic gets the saved original value and is not executed again (REL-07). */
    void duplicateAtomic(TransportQp qp, RxPacket pkt) {
        ResponderResources.Entry e = qp.resp.resources.findAtomic(pkt.bth().psn());
        if (e == null) {
            qp.count(QpCounter.DUPLICATES_DROPPED);
            return;
        }
        out.sendAtomicAck(qp, e.firstPsn, qp.resp.msn, e.original);
    }
}
