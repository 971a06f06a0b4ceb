package org.jrdma.soft.transport;

/**
 * The requester's own variables (rxe {@code qp->req}): only the {@link Requester} changes
 * them, except {@link #needRetry}/{@link #retryPsn}, which are the completer's request to it
 * (rxe need_retry), the read/atomic slot a completion gives back, and modify_qp's sq_psn.
 */
final class RequesterState {
    /** The PSN of the next packet to send. */
    int reqPsn;
    /**
     * The completer asked the requester to go back to {@link #retryPsn}; the requester rewinds
     * itself at its next doWork. Until then the completer reads the requester's PSN as
     * retryPsn and no WQE as started.
     */
    boolean needRetry;
    int retryPsn;
    /** One past the highest PSN ever sent: packets below it are retransmissions. */
    int sentHighPsn;
    /** Packets since the last AckReq (one at least every 64, rxe RXE_MAX_PKT_PER_ACK). */
    int packetsSinceAckReq;
    /** READs and atomics in flight, at most max_rd_atomic (rxe req.rd_atomic). */
    int rdAtomicOutstanding;
}
