package org.jrdma.soft.stage;

import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrOpcode;

/**
 * A send-queue entry: what the WR asked for, copied at post time, plus where the requester is
 * with it. Life: POSTED → SENDING (some packets out) → PENDING (all out, awaiting the ACK) →
 * completed and popped; go-back-N moves entries back to SENDING/POSTED (rxe's wqe states).
 */
public final class SendWqe {
    enum State { POSTED, SENDING, PENDING }

    long wrId;
    WrOpcode opcode;
    int sendFlags;
    boolean signaled;
    boolean solicited;
    int immData;
    long remoteAddr;
    int rkey;
    final Gather gather;
    /** Non-null when the WR failed a local check at post time (e.g. LOC_PROT_ERR for a bad lkey). */
    WcStatus postError;

    State state;
    int firstPsn;
    int lastPsn;
    int packets;
    /** Packets of this message already handed to the wire (the next packet's index). */
    int sentPackets;

    SendWqe(int maxSge) {
        gather = new Gather(maxSge);
    }

    void reset() {
        gather.clear();
        postError = null;
        state = State.POSTED;
        sentPackets = 0;
        packets = 0;
    }

    long length() {
        return gather.totalLength();
    }
}
