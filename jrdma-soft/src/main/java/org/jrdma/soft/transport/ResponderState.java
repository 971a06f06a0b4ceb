package org.jrdma.soft.transport;

import java.lang.foreign.MemorySegment;
import org.jrdma.soft.memory.Region;

/**
 * The responder's own variables (rxe {@code qp->resp}): changed by the {@link Responder},
 * {@link ReadAtomicResponder}, the ACK coalescing that sends for it, and by modify_qp
 * (rq_psn) and the QP's RESET and ERR.
 */
final class ResponderState {
    /** The expected PSN of the next request. */
    int ePsn;
    /** Messages completed (§2.7), 24-bit like a PSN. */
    int msn;
    /** A sequence NAK was sent for the gap at ePSN: no more until an in-order packet. */
    boolean sentPsnNak;
    /** UC: a packet was lost or refused; drop until the next FIRST/ONLY (§2.6). */
    boolean ucDropping;
    /** A SEND in progress, and how many of its bytes have landed. */
    boolean inSend;
    long recvOffset;
    /** A plain ACK held back to be coalesced with later ones. */
    final HeldAck heldAck = new HeldAck();
    /** An RDMA WRITE in progress: where the next payload byte goes, and what is left. */
    boolean inWrite;
    MemorySegment writeTarget;
    /** The region {@link #writeTarget} lies in, re-checked on every packet (SEC-46); null for a zero-length WRITE. */
    Region writeMr;
    long writeOffset;
    long writeRemaining;
    long writeLength;
    /** The responder resources that remember READs and atomics (rxe resp.resources). */
    final ResponderResources resources = new ResponderResources();
}
