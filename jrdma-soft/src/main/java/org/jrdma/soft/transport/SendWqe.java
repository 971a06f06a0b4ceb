package org.jrdma.soft.transport;

import org.jrdma.soft.memory.Gather;
import org.jrdma.soft.memory.Window;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrOpcode;

/**
 * A send-queue entry: what the WR asked for, copied at post time, plus where the requester is
 * with it. Life: POSTED → SENDING (some packets out) → PENDING (all out, awaiting the ACK or
 * the READ/atomic response) → completed and popped; DONE entries (local operations, and sends
 * of transports without ACKs) complete when they reach the head. Go-back-N moves entries back
 * to SENDING (rxe's wqe states).
 */
public final class SendWqe {
    enum State { POSTED, SENDING, PENDING, DONE }

    long wrId;
    WrOpcode opcode;
    int sendFlags;
    boolean signaled;
    boolean solicited;
    int immData;
    long remoteAddr;
    int rkey;
    long compareAdd;
    long swap;
    /** BIND_MW: the window, what to bind it to, and the rkey it gets; LOCAL_INV / SEND_WITH_INV: the rkey to invalidate. */
    Window mw;
    org.jrdma.verbs.MwBind bind;
    int newRkey;
    int invalidateRkey;
    /** UD: the destination of this datagram (from the WR's address handle), its QPN and Q_Key. */
    UdDestination udDestination;
    int remoteQpn;
    int remoteQkey;
    final Gather gather;
    /** Non-null when the WR failed a local check at post time (e.g. LOC_PROT_ERR for a bad lkey). */
    WcStatus postError;

    State state;
    int firstPsn;
    int lastPsn;
    /** PSNs the message occupies: its packets, or for a READ the response packets. */
    int packets;
    /** Packets of this message already handed to the wire (the next packet's index). */
    int sentPackets;
    /** READ: bytes of the response already placed; atomics: the response arrived. */
    long received;
    /** Holds one of the initiator's max_rd_atomic slots (a READ or atomic that started). */
    boolean holdsRdAtomicSlot;

    SendWqe(int maxSge) {
        gather = new Gather(maxSge);
    }

    void reset() {
        gather.clear();
        postError = null;
        state = State.POSTED;
        sentPackets = 0;
        packets = 0;
        received = 0;
        holdsRdAtomicSlot = false;
        mw = null;
        bind = null;
    }

    long length() {
        return gather.totalLength();
    }

    boolean isRead() {
        return opcode == WrOpcode.RDMA_READ;
    }

    boolean isAtomic() {
        return opcode == WrOpcode.ATOMIC_CMP_AND_SWP || opcode == WrOpcode.ATOMIC_FETCH_AND_ADD;
    }

    /** READs and atomics are completed by their responses, not by ACKs. */
    boolean needsResponse() {
        return isRead() || isAtomic();
    }

    boolean isWrite() {
        return opcode == WrOpcode.RDMA_WRITE || opcode == WrOpcode.RDMA_WRITE_WITH_IMM;
    }

    /** Work done at the requester without packets (rxe: REG_MR, LOCAL_INV, BIND_MW). */
    boolean isLocal() {
        return opcode == WrOpcode.BIND_MW || opcode == WrOpcode.LOCAL_INV;
    }

    boolean fenced() {
        return (sendFlags & SendFlags.FENCE) != 0;
    }
}
