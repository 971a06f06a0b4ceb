package org.jrdma.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jrdma.shm.ring.MpmcRing;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.PostException;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.spi.PostLists;

/**
 * The owner's side of a receive ring (a QP's receive queue or an SRQ): posting writes entries
 * a peer's requester consumes; flushing consumes them itself with WR_FLUSH_ERR. SGEs are
 * checked when a message lands (as a NIC does), so a bad lkey completes LOC_PROT_ERR then.
 */
final class RecvRing {
    final MpmcRing ring;
    final int depth;
    final int maxSge;
    private long consumedSeen;

    RecvRing(MpmcRing ring, int depth, int maxSge) {
        this.ring = ring;
        this.depth = depth;
        this.maxSge = maxSge;
    }

    void postList(RecvWorkRequest head, String verb) {
        if (head.next != null && PostLists.length(head) < 0) {
            throw PostException.cyclic(verb, head);
        }
        int n = 0;
        for (RecvWorkRequest wr = head; wr != null; wr = wr.next) {
            try {
                post(wr, verb);
            } catch (VerbsException e) {
                throw PostException.of(e, wr, n);
            }
            n++;
        }
    }

    private void post(RecvWorkRequest wr, String verb) {
        int count = wr.sgList.count();
        if (count > maxSge) {
            throw new VerbsException(Errno.EINVAL, verb + ": " + count + " SGEs but max_recv_sge is " + maxSge);
        }
        // The owner is the one producer: its own tail is exact, and the consumers' head, written by
        // peers, is read again only when the cached one says the queue may be full (one cache miss
        // per post saved on the latency path).
        long tail = ring.produced();
        if (tail - consumedSeen >= depth) {
            consumedSeen = ring.consumed();
            if (tail - consumedSeen >= depth) {
                throw new VerbsException(Errno.ENOMEM, verb + ": the receive queue is full (" + depth + " WRs posted)");
            }
        }
        long p = ring.claimProduce();
        if (p < 0) {
            throw new VerbsException(Errno.ENOMEM, verb + ": the receive queue is full (" + depth + " WRs posted)");
        }
        MemorySegment m = ring.segment();
        long e = ring.entry(p);
        m.set(ValueLayout.JAVA_LONG, e, wr.wrId);
        m.set(ValueLayout.JAVA_INT, e + 8, count);
        for (int i = 0; i < count; i++) {
            Sge sge = wr.sgList.get(i);
            long at = e + 16 + 16L * i;
            m.set(ValueLayout.JAVA_LONG, at, sge.addr);
            m.set(ValueLayout.JAVA_INT, at + 8, sge.length);
            m.set(ValueLayout.JAVA_INT, at + 12, sge.lkey);
        }
        ring.publish(p);
    }

    /** Completes every posted receive with WR_FLUSH_ERR into the QP's receive CQ. */
    void flush(ShmQp qp) {
        MemorySegment m = ring.segment();
        for (long p = ring.claimConsume(); p >= 0; p = ring.claimConsume()) {
            long wrId = m.get(ValueLayout.JAVA_LONG, ring.entry(p));
            ring.release(p);
            qp.node.self.complete(qp.recvCq.index, wrId, WcStatus.WR_FLUSH_ERR.value(), WcOpcode.RECV.value(), 0, 0,
                    qp.qpn, 0, 0, false);
        }
    }

    /** Drops every posted receive without a completion (modify to RESET). */
    void discard() {
        for (long p = ring.claimConsume(); p >= 0; p = ring.claimConsume()) {
            ring.release(p);
        }
    }
}
